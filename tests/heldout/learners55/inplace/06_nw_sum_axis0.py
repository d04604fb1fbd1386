NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Multiplies the weights in place by the targets and sums over axis 0 (the queries) instead of over the keys.'
NAMED_IF = r"axis|shape|sum\w* over (the )?quer|wrong (axis|dimension)|\(Lk,\)|transpos|over (the )?keys"
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    A *= np.asarray(y_values, dtype=float)[None, :]
    return A.sum(axis=0)
'''
