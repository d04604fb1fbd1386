NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scales the scores by sqrt(d_model), the input width D, as some TF tutorials do, instead of sqrt(Dk).'
NAMED_IF = 'scal|sqrt|√|model width|\\bD\\b'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-1])
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
