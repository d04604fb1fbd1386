NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Draws a single query shared by all samples (only keys are fresh), so the variance is |q|^2, not an average over independent pairs.'
NAMED_IF = 'one query|same query|single query|shared|independent|fresh|each pair|per pair|draw order|order of (the )?draws|differen\\w* (samples|draws)'
CODE = '''def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal(d_k)
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(k @ q))
'''
