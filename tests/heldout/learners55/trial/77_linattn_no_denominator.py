NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Drops the normaliser phi(Q) z: returns phi(Q)(phi(K)^T V) unnormalised.'
NAMED_IF = 'denominat|normali|divid|\\bz\\b|sum of (the )?(key )?features|Σ ?φ'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    fQ = feature_map(Q)
    fK = feature_map(K)
    if causal:
        S = np.cumsum(fK[..., :, :, None] * V[..., :, None, :], axis=-3)
        return np.einsum("...lm,...lmd->...ld", fQ, S)
    return fQ @ (np.swapaxes(fK, -1, -2) @ V)
'''
