NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'uses the unbiased sample variance (ddof=1) instead of ddof=0'
NAMED_IF = 'ddof|unbiased|n ?- ?1|sample variance|bessel|population'
CODE = '''def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    Q = rng.standard_normal((n_samples, d_k))
    K = rng.standard_normal((n_samples, d_k))
    dots = np.sum(Q * K, axis=-1)
    return float(np.var(dots, ddof=1))     # unbiased estimator
'''

FAIR = "the course already grades the sample variance as a correct sampling (tests/test_query_key_value.py, sv_one_draw uses ddof=1): both estimate d_k"
