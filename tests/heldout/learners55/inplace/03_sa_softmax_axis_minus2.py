NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Normalises the scores over axis -2 (the queries) instead of the last axis.'
NAMED_IF = r"axis|column|transpos|rows? (do not|don't|does not) sum|over (the )?quer"
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1])
    S = attnlab.softmax(S, axis=-2)
    return S @ V, S
'''
