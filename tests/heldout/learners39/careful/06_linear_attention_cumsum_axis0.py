NOTEBOOK = "06_attention_as_kernel_machine"
CELL = "linear_attention"
MISTAKE = "In the causal branch the prefix sums run along axis 0 instead of the position axis, which is only right for an unbatched input."
NAMED_IF = r"cumsum|prefix|axis|position|batch"
CODE = '''
def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k): φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), linear in the length."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    if not causal:
        S = np.swapaxes(phi_k, -1, -2) @ V                 # (..., M, Dv)
        z = phi_k.sum(axis=-2)                             # (..., M)
        num = phi_q @ S
        den = (phi_q @ z[..., None])
        return num / den
    outer = phi_k[..., :, :, None] * V[..., :, None, :]    # (..., L, M, Dv)
    S = np.cumsum(outer, axis=0)
    z = np.cumsum(phi_k, axis=0)                           # (..., L, M)
    num = np.einsum("...lm,...lmd->...ld", phi_q, S)
    den = np.einsum("...lm,...lm->...l", phi_q, z)[..., None]
    return num / den
'''
