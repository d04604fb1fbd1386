NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'In the causal branch takes the cumulative sum of the outer products along axis -2 (the feature axis) instead of -3 (positions), the axis the learner used for the features.'
NAMED_IF = 'axis|cumsum|prefix|position|along|j ?<=? ?i'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    fQ = feature_map(Q)
    fK = feature_map(K)
    if causal:
        S = np.cumsum(fK[..., :, :, None] * V[..., :, None, :], axis=-2)
        z = np.cumsum(fK, axis=-2)
        num = np.einsum("...lm,...lmd->...ld", fQ, S)
        den = np.einsum("...lm,...lm->...l", fQ, z)[..., None]
        return num / den
    S = np.swapaxes(fK, -1, -2) @ V
    z = fK.sum(axis=-2)
    return (fQ @ S) / (fQ @ z[..., :, None])
'''
