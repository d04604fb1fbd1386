NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'nadaraya_watson'
MISTAKE = 'Averages w_k y_k with a mean over the keys instead of summing, dividing every prediction by Lk.'
NAMED_IF = '\\bmean\\b|divid|L_?k|\\bsum\\b|number of keys|too small|factor'
CODE = '''def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    A = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    return np.mean(A * np.asarray(y_values, dtype=float)[None, :], axis=1)
'''
