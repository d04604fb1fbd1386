NOTEBOOK = "02_query_key_value"
CELL = "score_variance"
MISTAKE = "Sums the products over the sample axis instead of the feature axis, so it returns the variance of d_k sums of n_samples products (about n_samples) rather than of n_samples dot products."
NAMED_IF = r"axis|n_samples|sum.{0,30}(samples|features|d_k)|shape"
CODE = '''
def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = np.sum(q * k, axis=0)
    return float(np.var(dots))
'''
