NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = "Reads '1st, 3rd, 5th, ...' as zero-based odd indices ([1::2]), taking the 2nd, 4th, ... slopes of the 2n list."
NAMED_IF = 'every other|1st, 3rd|\\bodd\\b|\\beven\\b|\\[1::2\\]|\\[::2\\]|index|off[- ]by[- ]one|second|2nd|zero[- ]based|interleav'
CODE = '''def alibi_slopes(H):
    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(H)
    return np.concatenate([geometric(n), geometric(2 * n)[1::2][:H - n]])
'''
