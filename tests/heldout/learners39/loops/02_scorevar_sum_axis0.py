NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Sums the products over axis 0 (the samples) instead of the last axis (the d_k features), so it takes the variance of d_k sums of n_samples products.'
NAMED_IF = r'axis|over the samples|across (the )?samples|wrong dimension'
CODE = '''def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = np.sum(q * k, axis=0)
    return float(np.var(dots))
'''
