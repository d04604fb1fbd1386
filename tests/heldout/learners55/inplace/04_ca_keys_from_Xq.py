NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Projects the keys from X_q instead of X_kv (works silently when the widths and lengths match).'
NAMED_IF = r"X_q|X_kv|keys? (from|of) (the )?(wrong|quer)|wrong (input|sequence)|self.attention|keys[^.]{0,30}quer"
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_q @ W_k
    V = X_kv @ W_v
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
