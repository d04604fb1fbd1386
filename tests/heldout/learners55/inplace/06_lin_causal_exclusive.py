NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'Shifts the prefix sums by one in place (S[..., 1:] = S[..., :-1]; S[..., 0] = 0) so a token does not include its own key; the first token then divides 0 by 0.'
NAMED_IF = r"current|own (token|key)|j ?<= ?i|includ|strict|off.by.one|exclusive|itself|first token|nan"
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    pQ, pK = feature_map(Q), feature_map(K)
    if not causal:
        S = np.swapaxes(pK, -1, -2) @ V
        z = pK.sum(axis=-2)
        return (pQ @ S) / (pQ @ z[..., None])
    S = np.cumsum(pK[..., :, :, None] * V[..., :, None, :], axis=-3)
    z = np.cumsum(pK, axis=-2)
    S[..., 1:, :, :] = S[..., :-1, :, :].copy()
    S[..., 0, :, :] = 0
    z[..., 1:, :] = z[..., :-1, :].copy()
    z[..., 0, :] = 0
    num = np.einsum("...lm,...lmd->...ld", pQ, S)
    den = np.einsum("...lm,...lm->...l", pQ, z)
    return num / den[..., None]
'''
