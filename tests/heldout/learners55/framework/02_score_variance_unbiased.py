NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = "Uses the unbiased variance (ddof=1, torch.var's default) where the check asks for ddof=0."
NAMED_IF = 'ddof|unbiased|bessel|n ?- ?1'
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1), ddof=1))
'''
