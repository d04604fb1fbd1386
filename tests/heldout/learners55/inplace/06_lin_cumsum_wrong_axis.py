NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'In the causal branch takes the prefix sums of the outer products along axis -2 (the feature axis M) instead of -3 (the positions).'
NAMED_IF = r"axis|cumsum|prefix sums?[^.]{0,30}(wrong|over|along)|along the (feature|wrong)|positions|causal"
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    pQ, pK = feature_map(Q), feature_map(K)
    if not causal:
        S = np.swapaxes(pK, -1, -2) @ V
        z = pK.sum(axis=-2)
        return (pQ @ S) / (pQ @ z[..., None])
    S = pK[..., :, :, None] * V[..., :, None, :]
    S = np.cumsum(S, axis=-2)
    z = np.cumsum(pK, axis=-2)
    num = np.einsum("...lm,...lmd->...ld", pQ, S)
    den = np.einsum("...lm,...lm->...l", pQ, z)
    return num / den[..., None]
'''
