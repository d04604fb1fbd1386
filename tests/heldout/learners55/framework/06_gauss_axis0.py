NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Takes the softmax over axis 0 (the queries) instead of over the keys.'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|over (the )?queries|columns'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_keys, dtype=float)[None, :]
    return attnlab.softmax(-d ** 2 / (2 * bandwidth ** 2), axis=0)
'''
