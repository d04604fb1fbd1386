NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Passes bandwidth**2 to the weights function as if it took the variance.'
NAMED_IF = 'bandwidth|σ|sigma|squar|width|variance'
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth ** 2)
    return A @ np.asarray(y_values, dtype=float)
'''
