NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Multiplies q by k in place and then sums over the samples (axis 0) instead of over the d_k entries, so it measures the variance of d_k sums of n_samples products.'
NAMED_IF = r"axis|over (the )?samples|wrong (axis|dimension)|n_samples|per (pair|row)|row.?wise"
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    q *= k
    return float(np.var(q.sum(axis=0)))
'''
