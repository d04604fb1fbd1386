NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Draws the samples from the global np.random instead of the rng it is given.'
NAMED_IF = r'rng|generator|np\.random|seed|reproduc'
CODE = '''def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    dots = []
    for i in range(n_samples):
        q = np.random.standard_normal(d_k)
        k = np.random.standard_normal(d_k)
        dots.append(np.dot(q, k))
    return float(np.var(dots))
'''
