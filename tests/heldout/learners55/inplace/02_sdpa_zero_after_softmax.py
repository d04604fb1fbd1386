NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Takes the softmax of all scores and then zeros the masked weights in place (w *= mask), so the remaining weights are not renormalised.'
NAMED_IF = r"renormali|after (the )?softmax|sum to (less than )?(one|1)|(don't|do not|does not|doesn't) sum|zero(ed|ing|es)? (the )?(masked )?weights after|before (the )?softmax"
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    w = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]), axis=-1)
    if mask is not None:
        w = w * np.broadcast_to(mask, w.shape)
    return w @ V, w
'''
