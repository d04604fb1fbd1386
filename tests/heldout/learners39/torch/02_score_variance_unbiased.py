NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = "Takes the variance with torch's Tensor.var(), whose default is the unbiased estimator (ddof=1), instead of ddof=0."
NAMED_IF = r"ddof|unbiased|bessel|n_samples ?- ?1|N ?- ?1"
CODE = '''import torch


def score_variance(d_k, n_samples, rng):
    q = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    k = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    dots = (q * k).sum(dim=-1)
    return dots.var().item()
'''
FAIR = "Dividing by n-1 instead of n changes the estimate by a factor 1 + 1/(n-1) (about 5e-5 at n = 20000), far inside the sampling error sqrt(2/n) ~ 1.4% of the simulation the notebook asks for, so it is statistically indistinguishable for checking Var(q.k) = d_k (COURSE.md Fair checks: tolerances scale with the expected values)."
