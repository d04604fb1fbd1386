NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = 'Computes the head width as D // H (from the model width) instead of W_q.shape[1] // H.'
NAMED_IF = r"head width|D ?// ?H|block (size|width)|width of (a|each) head|model width|W_q.shape\[0\]|columns? per head"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    D = W_q.shape[0]
    Dh = D // H
    return np.stack([W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T for h in range(H)])
'''
