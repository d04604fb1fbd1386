NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = 'Fills the extra heads with the 2nd, 4th, ... slopes of the 2n list ([1::2]) instead of the 1st, 3rd, ... ([::2]).'
NAMED_IF = r"1st, ?3rd|every other|\bodd|\beven|\[::2\]|\[1::2\]|wrong (half|slopes)|interleav|fill|2n"
CODE = '''def alibi_slopes(H):
    def geo(n):
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
    n = 2 ** int(np.log2(H))
    s = geo(n)
    if n < H:
        s = np.concatenate([s, geo(2 * n)[1::2][:H - n]])
    return s
'''
