NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Normalises over axis 0 (the queries) instead of over the keys.'
NAMED_IF = r"axis|column|over (the )?quer|rows? (do not|don't|does not) sum|transpos|each row"
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    s = (x_query[:, None] - x_keys[None, :]) ** 2
    s /= -2 * bandwidth ** 2
    return attnlab.softmax(s, axis=0)
'''
