NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Takes the softmax over axis=1 by habit: right for one sequence, but for a batch (B, L, L) it normalises over the queries.'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|over (the )?queries|columns'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1])
    A = attnlab.softmax(S, axis=1)
    return A @ V, A
'''
