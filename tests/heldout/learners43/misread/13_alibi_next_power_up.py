NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Rounds H up to the next power of two N and returns the first H slopes of the list for N heads.'
NAMED_IF = r"round\w* up|next power|smallest power|ceil|above H|power of two above|first H (slopes|of)|truncat"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    N = 2 ** int(np.ceil(np.log2(H)))
    return 2.0 ** (-8.0 * np.arange(1, N + 1) / N)[:H]
'''
