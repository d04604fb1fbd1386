NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = "Uses the whole matrices for every head: W_q @ W_uk.T (a sum over all heads' blocks), repeated H times."
NAMED_IF = r"all heads|whole matri|every head .{0,20}same|same (map|matrix) for every head|sum\w* over (all )?(the )?heads|not split|full matri|without splitting|cross-head|other heads"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    M = W_q @ W_uk.T              # (D, Dc)
    return np.stack([M] * H)
'''
