NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Applies the mask the Keras way, adding (1 - mask) * -1e9 to the scores: a fully masked row then gets uniform weights instead of zeros.'
NAMED_IF = '1e9|1e\\+?09|-?10\\^?9|large negative|finite (fill|value|number|constant)|uniform|instead of -?inf'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores + (1.0 - mask.astype(float)) * -1e9
    w = attnlab.softmax(scores, axis=-1)
    return w @ V, w
'''
