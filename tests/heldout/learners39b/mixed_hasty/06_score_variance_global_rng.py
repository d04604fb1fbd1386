NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = "Draws the samples from numpy's global random state (np.random.randn) instead of the generator `rng` it was given, so the result is not reproducible from rng."
NAMED_IF = '\\brng\\b|generator|random state|global|seed|reproduc|np\\.random\\.'
CODE = '''\
def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    q = np.random.randn(n_samples, d_k)
    k = np.random.randn(n_samples, d_k)
    dots = np.sum(q * k, axis=1)     # (n_samples,)
    return float(np.var(dots))
'''
