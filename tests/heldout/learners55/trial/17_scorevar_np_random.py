NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Draws the samples from np.random (global state) instead of the rng it is given.'
NAMED_IF = 'rng|generator|np\\.random|seed|reproduc|same answer'
CODE = '''def score_variance(d_k, n_samples, rng):
    q = np.random.standard_normal((n_samples, d_k))
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))
'''
