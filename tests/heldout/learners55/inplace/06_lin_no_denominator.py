NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Returns only the numerator phi(Q) (phi(K)^T V), never dividing by phi(Q) sum phi(K).'
NAMED_IF = r"normali[sz]|denominator|divid|\bz\b|sum of (the )?(key )?features|weights (don't|do not) sum"
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    pQ, pK = feature_map(Q), feature_map(K)
    if not causal:
        return pQ @ (np.swapaxes(pK, -1, -2) @ V)
    S = np.cumsum(pK[..., :, :, None] * V[..., :, None, :], axis=-3)
    return np.einsum("...lm,...lmd->...ld", pQ, S)
'''
