NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Calls gaussian_attention_weights(x_keys, x_query, ...) and transposes, so the weights are normalised over the queries instead of over the keys.'
NAMED_IF = r'swap|argument|order|normali[sz]\w* over (the )?queries|axis|column'
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    """Nadaraya-Watson regression: attention pooling of y_values with Gaussian weights."""
    A = attnlab.gaussian_attention_weights(x_keys, x_query, bandwidth)
    return A.T @ np.asarray(y_values, dtype=float)
'''
