NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Never passes the mask to the attention, so masked keys still get weight.'
NAMED_IF = r'mask.{0,40}(ignor|not (used|applied|passed)|unused|dropped)|ignor.{0,20}mask|without (the |a )?mask|pass.{0,20}mask'
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    """Attention of the tokens of X_q over the tokens of X_kv."""
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    output, weights = attnlab.scaled_dot_product_attention(Q, K, V)
    return output, weights
'''
