NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Keeps the name S for the scaled scores, computes Z from softmax(S) inline, and returns the raw scores S instead of the weights A.'
NAMED_IF = r"scores? (instead of|not|rather than) (the )?weights|unnormali|before (the )?softmax|raw scores|sum to (1|one)|(don't|do not|does not) sum"
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2)
    S /= np.sqrt(Q.shape[-1])
    Z = attnlab.softmax(S, axis=-1) @ V
    return Z, S
'''
