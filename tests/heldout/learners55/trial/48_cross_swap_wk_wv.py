NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Swaps W_k and W_v (keys projected with W_v, values with W_k); it runs without error when Dk == Dv.'
NAMED_IF = 'W_?k|W_?v|swap|keys? and values?|values? and keys?|mix'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_kv @ W_v
    V = X_kv @ W_k
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
