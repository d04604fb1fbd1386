NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scores with K Qᵀ instead of Q Kᵀ (the learner swapped the operands to fix a shape error), so A is the transposed score matrix normalised over queries.'
NAMED_IF = 'transpos|K ?Q|Q ?K|order|swap|rows? and columns|keys? (and|vs|versus) quer'
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    S = K @ np.swapaxes(Q, -1, -2) / np.sqrt(W_q.shape[1])
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
