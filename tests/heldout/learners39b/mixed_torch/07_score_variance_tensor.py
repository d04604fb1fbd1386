NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Draws from rng but computes the variance with torch and returns a 0-d torch tensor instead of a float.'
NAMED_IF = 'tensor|torch|float|python (number|scalar)|type|0-d'
CODE = '''\
def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    import torch
    q = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    k = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    dots = (q * k).sum(dim=1)          # (n_samples,)
    return dots.var(unbiased=False)
'''
