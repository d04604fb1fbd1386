NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Applies the mask by multiplying the weights after the softmax, without renormalising, so the remaining weights no longer sum to one.'
NAMED_IF = 'renormali|sum(s)? to (one|1)|before the softmax|after the softmax|multipl|zero(ed|ing)? (out )?after|do not sum'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    w = attnlab.softmax(scores, axis=-1)
    if mask is not None:
        w = w * mask
    return w @ V, w
'''
