NOTEBOOK = "13_attention_variants"
CELL = 'alibi_slopes'
MISTAKE = 'Uses the power-of-two formula 2^(-8h/H) for every H, also when H is not a power of two.'
NAMED_IF = r"(formula|2\^\(-8h/H\)|geometric (list|sequence)).{0,40}(for any|for every|for all|used for|applied to)|power[- ]of[- ]two (rule|formula) .{0,30}(any|every|non|not)|without the (paper's )?(rule|fill|interleav)|ignor\w* the (paper's )?rule"
CODE = '''
def alibi_slopes(H):
    """ALiBi's slopes for H heads."""
    h = np.arange(1, H + 1)
    return 2.0 ** (-8.0 * h / H)
'''
