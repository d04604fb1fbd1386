NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Forgets the normaliser phi(Q)·Σphi(K): returns the numerator phi(Q)(phi(K)ᵀV) without dividing.'
NAMED_IF = r'normali|denominator|divid|\bz\b|sum of (the )?(key )?features|φ\(Q\) ?Σ'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k): φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), linear in the length."""
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    if not causal:
        S = np.swapaxes(phi_k, -1, -2) @ V
        return phi_q @ S
    outer = phi_k[..., :, :, None] * V[..., :, None, :]
    S = np.cumsum(outer, axis=-3)
    return np.einsum("...lm,...lmd->...ld", phi_q, S)
'''
