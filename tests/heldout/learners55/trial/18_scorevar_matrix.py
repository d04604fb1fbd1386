NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Computes q @ k.T, every query against every key, and takes the variance of that whole matrix instead of the n_samples row-wise dot products.'
NAMED_IF = 'matrix|every (query|pair)|all pairs|row-?wise|same row|q ?@ ?k|n_samples, n_samples|\\(n, ?n\\)|pair'
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q @ k.T))
'''
