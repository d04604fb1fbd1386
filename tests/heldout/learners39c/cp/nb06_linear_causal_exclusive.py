NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'causal prefix sums are exclusive (shifted by one), so query i uses keys j < i and not its own key'
NAMED_IF = 'j ?<=? ?i|itself|own (key|token|position)|exclusive|shift|prefix|diagonal|off.?by.?one|nan'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k), linear in the length."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    pq, pk = feature_map(Q), feature_map(K)
    if not causal:
        S = np.swapaxes(pk, -1, -2) @ V
        z = pk.sum(axis=-2)
        return (pq @ S) / (pq @ z[..., None])
    outer = pk[..., :, :, None] * V[..., :, None, :]          # (..., L, M, Dv)
    S = np.cumsum(outer, axis=-3) - outer                     # prefix before position i
    z = np.cumsum(pk, axis=-2) - pk
    num = np.einsum("...lm,...lmd->...ld", pq, S)
    den = np.einsum("...lm,...lm->...l", pq, z)[..., None]
    return num / np.where(den == 0, 1.0, den)
'''
