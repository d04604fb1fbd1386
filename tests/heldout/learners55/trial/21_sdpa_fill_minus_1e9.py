NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Blocks masked scores with -1e9 instead of -inf and uses a plain softmax, so a fully masked row gets uniform weights instead of zeros.'
NAMED_IF = 'fully masked|no key|empty|uniform|all-?zero|zero (weights|output)|nothing to attend|1e-?9'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    w = attnlab.softmax(scores, axis=-1)
    return w @ V, w
'''
