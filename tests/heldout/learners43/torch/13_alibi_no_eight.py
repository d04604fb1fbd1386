NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Forgets the factor 8 in the exponent: 2^(-h/H), slopes from 2^(-1/H) down to 1/2.'
NAMED_IF = r"-8|factor (of )?8|\b8h\b|eight|without the 8|2\^\(-h/H\)|-h/H|exponent"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    def geometric(n):
        return (2.0 ** (-torch.arange(1, n + 1, dtype=torch.float64) / n)).numpy()
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(n)
    return np.concatenate([geometric(n), geometric(2 * n)[::2][:H - n]])
'''
