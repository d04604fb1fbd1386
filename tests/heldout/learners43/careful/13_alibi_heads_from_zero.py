NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Counts the heads from 0: 2^(-8h/H) for h = 0..H-1, so the first slope is 1 and the last 2^(-8(H-1)/H).'
NAMED_IF = r"from 0|from 1|h ?= ?0|zero-based|0-based|off[- ]by[- ]one|count\w* (the )?heads|first slope (is )?1\b|shifted by one head|one head (early|late)"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(n) / n)
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(H)
    return np.concatenate([geometric(n), geometric(2 * n)[::2][:H - n]])
'''
