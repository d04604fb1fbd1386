NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Takes the causal prefix sums along axis=1 by habit (right for a (B, L, M, Dv) batch), which for one sequence (L, M, Dv) runs along the features instead of the positions.'
NAMED_IF = 'cumsum|prefix|cumulative|axis|running sum'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    pQ = feature_map(Q)
    pK = feature_map(K)
    if not causal:
        S = np.swapaxes(pK, -1, -2) @ V
        z = pK.sum(axis=-2)
        num = pQ @ S
        den = (pQ * z[..., None, :]).sum(axis=-1, keepdims=True)
        return num / den
    outer = pK[..., :, :, None] * V[..., :, None, :]
    S = np.cumsum(outer, axis=1)
    z = np.cumsum(pK, axis=1)
    num = np.einsum("...lm,...lmv->...lv", pQ, S)
    den = np.einsum("...lm,...lm->...l", pQ, z)[..., None]
    return num / den
'''
