NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Scales by sqrt(Dv), the value width (W_v.shape[1]), instead of sqrt(Dk).'
NAMED_IF = r"D_?v\b|value width|(wrong|incorrect) scal|not (by )?(sqrt|√) ?\(?D_?k|scale[^.]{0,40}values"
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    S = Q @ np.swapaxes(K, -1, -2)
    S /= np.sqrt(W_v.shape[1])
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
