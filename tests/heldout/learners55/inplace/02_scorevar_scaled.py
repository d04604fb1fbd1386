NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Divides the dot products in place by sqrt(d_k) before taking the variance, so it returns about 1 instead of about d_k.'
NAMED_IF = r"scal|sqrt|√|divid|about 1\b|close to 1\b|instead of (about )?d_?k|unscaled"
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    s = (q * k).sum(axis=-1)
    s /= np.sqrt(d_k)
    return float(s.var())
'''
