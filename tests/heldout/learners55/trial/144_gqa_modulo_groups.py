NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Assigns query head h to key/value head h % Hkv (round robin) instead of h // n_rep (neighbours).'
NAMED_IF = 'group|neighbo|h ?// ?|modulo|%|adjacent|round|interleav|which (key/value|kv) head'
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv = K.shape[1]
    if Hq % Hkv:
        raise ValueError(f"K: Hq={Hq} is not a multiple of Hkv={Hkv}")
    n_rep = max(1, Hq // Hkv)
    idx = np.arange(Hq) % Hkv
    S = Q @ np.swapaxes(K[:, idx], -1, -2) / np.sqrt(Dh)
    if mask is None:
        mask = np.ones(S.shape, dtype=bool)
    w = attnlab.masked_softmax(S, mask)
    return w @ V[:, idx], w
'''
