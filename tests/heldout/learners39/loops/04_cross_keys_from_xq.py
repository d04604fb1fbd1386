NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Computes the keys from X_q (X_q @ W_k) instead of from X_kv.'
NAMED_IF = r'keys? from|X_q.{0,30}(key|W_k)|(key|W_k).{0,30}X_q|X_kv|wrong (input|sequence)'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    """Attention of the tokens of X_q over the tokens of X_kv."""
    Q = X_q @ W_q
    K = X_q @ W_k
    V = X_kv @ W_v
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
