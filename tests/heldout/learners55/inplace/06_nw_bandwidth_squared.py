NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Passes bandwidth**2 as the bandwidth (squares the width twice).'
NAMED_IF = r"bandwidth|σ|sigma|squared|width|kernel"
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    bandwidth = bandwidth ** 2
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    return A @ np.asarray(y_values, dtype=float)
'''
