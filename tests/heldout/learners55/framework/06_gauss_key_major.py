NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Builds the differences key-major, (Lk, Lq) (a column of keys against a row of queries), and normalises over the last axis, the queries.'
NAMED_IF = 'transpos|swap|\\(Lk, ?Lq\\)|shape|axis|over (the )?queries|columns'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = np.asarray(x_keys, dtype=float)[:, None] - np.asarray(x_query, dtype=float)[None, :]
    return attnlab.softmax(-d ** 2 / (2 * bandwidth ** 2), axis=-1)
'''
