NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Does not raise when Hq is not a multiple of Hkv; the index silently runs off or mixes groups.'
NAMED_IF = 'ValueError|multiple|divisib|raise'
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    B, Hq, Lq, Dh = Q.shape
    Hkv = K.shape[1]
    n_rep = max(1, Hq // Hkv)
    idx = np.minimum(np.arange(Hq) // n_rep, Hkv - 1)
    S = Q @ np.swapaxes(K[:, idx], -1, -2) / np.sqrt(Dh)
    if mask is None:
        mask = np.ones(S.shape, dtype=bool)
    w = attnlab.masked_softmax(S, mask)
    return w @ V[:, idx], w
'''
