NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Returns a Python list of floats built in a loop instead of an (Lq,) array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    """Nadaraya-Watson regression: attention pooling of y_values with Gaussian weights."""
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    preds = []
    for q in range(len(x_query)):
        preds.append(float(np.sum(A[q] * y_values)))
    return preds
'''
