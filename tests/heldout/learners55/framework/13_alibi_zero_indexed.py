NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = 'Counts the heads from 0 (np.arange(n), the zero-based habit) instead of h = 1..n, so the first slope is 1.'
NAMED_IF = 'from (0|1|one|zero)|h ?= ?(0|1)|index|off[- ]by[- ]one|count(ed|s)? from|start|first slope|zero[- ]based|1\\.\\.n|1\\.\\.H'
CODE = '''def alibi_slopes(H):
    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(n) / n)
    n = 2 ** int(np.log2(H))
    if n == H:
        return geometric(H)
    return np.concatenate([geometric(n), geometric(2 * n)[::2][:H - n]])
'''
