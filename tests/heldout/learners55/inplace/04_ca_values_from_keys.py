NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Reassigns X_kv to its key projection and then computes the values from that reassigned name (V = (X_kv W_k) W_v).'
NAMED_IF = r"values? (from|of) (the )?(keys|projected)|K ?@ ?W_v|W_v[^.]{0,40}(keys|\bK\b)|project\w* twice|X_kv|wrong input"
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    X_q = X_q @ W_q
    X_kv = X_kv @ W_k
    V = X_kv @ W_v
    return attnlab.scaled_dot_product_attention(X_q, X_kv, V, mask)
'''
