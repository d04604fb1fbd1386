NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Loops over Q.shape[0] as the queries and reads Dk from Q.shape[1], so it only handles one 2-D sequence and breaks with leading batch dimensions.'
NAMED_IF = r'batch|leading|\.\.\.|rank|3-D|ndim|dimension'
FAILS = ('test_sdpa', 'test_sdpa_batched', 'test_sdpa_mask', 'test_sdpa_fully_masked')
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    Lq = Q.shape[0]
    d_k = Q.shape[1]
    out_rows, weight_rows = [], []
    for i in range(Lq):
        s = K @ Q[i] / np.sqrt(d_k)
        if mask is not None:
            s = np.where(mask[i], s, -np.inf)
        if np.all(np.isinf(s)):
            w = np.zeros_like(s)
        else:
            w = np.exp(s - np.max(s))
            w = w / w.sum()
        weight_rows.append(w)
        out_rows.append(w @ V)
    return np.array(out_rows), np.array(weight_rows)
'''
