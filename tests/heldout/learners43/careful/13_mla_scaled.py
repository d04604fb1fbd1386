NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = 'Folds the 1/sqrt(Dh) of attention into the absorbed map.'
NAMED_IF = r"sqrt|√|scal|1 ?/ ?sqrt"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    Dh = W_q.shape[1] // H
    return np.stack([W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T / np.sqrt(Dh)
                     for h in range(H)])
'''
