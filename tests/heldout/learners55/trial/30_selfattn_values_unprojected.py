NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Averages X itself, sliced to Dv columns to make the shape match, instead of the projected values X W_v.'
NAMED_IF = 'W_?v|value|project|X W|slice|first D_?v'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q = X @ W_q
    K = X @ W_k
    Dv = W_v.shape[1]
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1])
    A = attnlab.softmax(S, axis=-1)
    return A @ X[..., :Dv], A
'''
