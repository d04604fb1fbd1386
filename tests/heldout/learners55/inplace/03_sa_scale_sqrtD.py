NOTEBOOK = '03_self_attention'
CELL = 'self_attention'
MISTAKE = 'Divides the scores in place by sqrt(D), the input width, instead of sqrt(Dk).'
NAMED_IF = r"sqrt\(?\s*D\b|√ ?D\b(?!k)|input width|model width|\bD instead of D_?k|(wrong|incorrect) scal|scal\w*[^.]{0,30}\bD\b(?!k)|not (by )?(sqrt|√) ?\(?D_?k"
CODE = '''def self_attention(X, W_q, W_k, W_v):
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    S = Q @ np.swapaxes(K, -1, -2)
    S /= np.sqrt(X.shape[-1])
    A = attnlab.softmax(S, axis=-1)
    return A @ V, A
'''
