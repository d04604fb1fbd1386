NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Returns the standard deviation instead of the variance.'
NAMED_IF = '\\bstd|standard deviation|sqrt|square|√'
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std(np.sum(q * k, axis=-1)))
'''
