NOTEBOOK = '13_attention_variants'
CELL = 'alibi_slopes'
MISTAKE = 'Uses 2^(-8h/H) for every H, also when H is not a power of two.'
NAMED_IF = r"power of (two|2)|not a power|\bfill|interleav|every other|\b2n\b|non.power"
CODE = '''def alibi_slopes(H):
    h = np.arange(1, H + 1)
    return 2.0 ** (-8.0 * h / H)
'''
