NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Ranks with an ascending argsort and keeps the last k, so among tied scores the higher key index is kept.'
NAMED_IF = r"\btie|lower (key )?index|stable|equal scores|higher (key )?index"
CODE = '''def topk_attention(Q, K, V, k):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    order = np.argsort(S, axis=-1, kind="stable")
    keep = np.zeros(S.shape, dtype=bool)
    np.put_along_axis(keep, order[..., -k:], True, axis=-1)
    S[~keep] = -np.inf
    S -= S.max(axis=-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=-1, keepdims=True)
    return S @ V, S
'''
