NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Builds the right set of slopes but sorts them from steepest to gentlest, interleaving the filled heads instead of appending them after the n heads.'
NAMED_IF = r"sort|interleav|append\w*|after the (first )?n|order|merged|concatenat"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    n = 2 ** int(np.log2(H))
    slopes = [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]
    if n < H:
        more = [2.0 ** (-8.0 * h / (2 * n)) for h in range(1, 2 * n + 1, 2)]
        slopes = slopes + more[:H - n]
    return np.array(sorted(slopes, reverse=True))
'''
