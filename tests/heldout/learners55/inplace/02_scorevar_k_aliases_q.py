NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Sets k = q and fills k in place with fresh normals, which also overwrites q: every pair has q == k, so the variance measured is that of |q|^2 (about 2 d_k).'
NAMED_IF = r"same (vector|array|sample|draw)|q (and|==|equals?) k|k (is|==|equals?) q|identical|ali|squared? norm|\|q\||2 ?\*? ?d_?k|twice (the )?(expected|d_?k)|independent"
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = q
    k[:] = rng.standard_normal((n_samples, d_k))
    scores = (q * k).sum(axis=-1)
    return float(np.var(scores))
'''
