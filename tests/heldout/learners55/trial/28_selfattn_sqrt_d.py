NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scales the scores by sqrt(D), the input width, instead of sqrt(Dk).'
NAMED_IF = 'D_?k|sqrt|√|scal|width|temperature'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
