NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Transposes K with K.T and, after the batched check failed, special-cases 3-D input with transpose(0, 2, 1); 4-D (two batch axes) input is still transposed wrongly.'
NAMED_IF = 'batch|leading|ndim|dimension|\\.T\\b|swapaxes|transpos|4-?D|extra ax'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    if K.ndim == 3:
        Kt = K.transpose(0, 2, 1)
    else:
        Kt = K.T
    scores = Q @ Kt / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    tot = e.sum(axis=-1, keepdims=True)
    w = e / np.where(tot > 0, tot, 1.0)
    return w @ V, w
'''
