NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Exponentiates the scores as they are and normalises; for a query far from every key this is 0/0, patched with nan_to_num, so that row is all zeros instead of summing to one.'
NAMED_IF = 'finite|stab|underflow|max(imum)?|nan|far|0 ?/ ?0|zero row|sum(s)? to (one|1)'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    e = np.exp(-d ** 2 / (2 * bandwidth ** 2))
    return np.nan_to_num(e / e.sum(axis=-1, keepdims=True))
'''
