NOTEBOOK = '13_attention_variants'
CELL = 'topk_attention'
MISTAKE = 'Keeps the keys of rank <= k, that is k + 1 keys per query.'
NAMED_IF = r"off.by.one|k ?\+ ?1|one (too many|extra|more)|exactly k|\brank|k keys"
CODE = '''def topk_attention(Q, K, V, k):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    rank = np.argsort(np.argsort(-S, axis=-1, kind="stable"), axis=-1)
    S = np.where(rank <= k, S, -np.inf)
    S -= S.max(axis=-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=-1, keepdims=True)
    return S @ V, S
'''
