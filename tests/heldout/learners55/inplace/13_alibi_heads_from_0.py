NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = 'Counts the heads from 0 (np.arange(n)), so the first slope is 1 and the last 2^(-8 + 8/n).'
NAMED_IF = r"from (0|1|zero|one)|count\w* from|h ?= ?1|off.by.one|first slope|\bstart|\b1\.0\b|2\^?\(?-8"
CODE = '''def alibi_slopes(H):
    def geo(n):
        return 2.0 ** (-8.0 * np.arange(n) / n)
    n = 2 ** int(np.log2(H))
    s = geo(n)
    if n < H:
        s = np.concatenate([s, geo(2 * n)[::2][:H - n]])
    return s
'''
