NOTEBOOK = '02_query_key_value'
CELL = 'score_variance'
MISTAKE = 'Seeds and draws from the global NumPy random state (torch.manual_seed habit) instead of drawing from the generator it was given.'
NAMED_IF = 'rng|generator|seed|np\\.random|global'
CODE = '''def score_variance(d_k, n_samples, rng):
    np.random.seed(0)
    q = np.random.standard_normal((n_samples, d_k))
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=-1)))
'''
