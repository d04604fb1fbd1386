NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Returns the slopes in ascending order (gentlest head first), 2^(-8(H+1-h)/H).'
NAMED_IF = r"revers|order|ascending|increas|backwards|flipped|gentlest first|steepest (head )?last"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(n, 0, -1) / n)
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(H)
    return np.concatenate([geometric(n), geometric(2 * n)[::2][:H - n]])
'''
