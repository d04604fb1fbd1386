NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Uses phi(K).T, which reverses every axis of a batched array, instead of swapping the last two axes.'
NAMED_IF = r'\.T\b|transpos|swapaxes|revers'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k): φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), linear in the length."""
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    if not causal:
        S = phi_k.T @ V
        z = phi_k.sum(axis=-2)
        num = phi_q @ S
        den = np.sum(phi_q * z[..., None, :], axis=-1)
        return num / den[..., None]

    outer = phi_k[..., :, :, None] * V[..., :, None, :]
    S = np.cumsum(outer, axis=-3)
    z = np.cumsum(phi_k, axis=-2)
    num = np.einsum("...lm,...lmd->...ld", phi_q, S)
    den = np.einsum("...lm,...lm->...l", phi_q, z)
    return num / den[..., None]
'''
