NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Computes the predictions as a row vector y @ A.T of shape (1, Lq), keeping the extra axis, instead of (Lq,).'
NAMED_IF = 'shape|\\(1, ?Lq\\)|extra (axis|dimension)|keepdims|squeeze|row vector|2-?d'
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    y = np.asarray(y_values, dtype=float)[None, :]
    return y @ A.T
'''
