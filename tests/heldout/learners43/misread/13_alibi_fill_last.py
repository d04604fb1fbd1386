NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Takes the last H - n of the every-other slopes of the 2n list instead of the first H - n.'
NAMED_IF = r"last|first H ?- ?n|tail|end of the list|gentlest"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(n)
    return np.concatenate([geometric(n), geometric(2 * n)[::2][-(H - n):]])
'''
