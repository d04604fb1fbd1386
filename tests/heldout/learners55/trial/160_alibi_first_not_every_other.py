NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = 'For H not a power of two takes the first H - n slopes of the 2n list instead of every other one (1st, 3rd, ...).'
NAMED_IF = 'every other|odd|1st, ?3rd|\\[::2\\]|alternat|skip'
CODE = '''def alibi_slopes(H):
    def geo(n):
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
    n = 2 ** int(np.floor(np.log2(H)))
    if n == H:
        return geo(n)
    return np.concatenate([geo(n), geo(2 * n)[:H - n]])
'''
