NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'ignores the given rng and draws from a fresh generator seeded with d_k (for reproducibility)'
NAMED_IF = 'rng|generator|seed|np\\.random|argument|not (used|read)|ignor'
CODE = '''def score_variance(d_k, n_samples, rng):
    """Empirical variance of q·k for independent standard-normal q, k in R^d_k."""
    gen = np.random.default_rng(12345 + d_k)   # reproducible per width
    Q = gen.standard_normal((n_samples, d_k))
    K = gen.standard_normal((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", Q, K)))
'''
