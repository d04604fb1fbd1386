NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = "Takes head h's columns as every H-th column starting at h (W[:, h::H]) instead of the contiguous block h*Dh:(h+1)*Dh."
NAMED_IF = r"interleav|strid|h::H|contiguous|every H-?th|columns? h ?\* ?Dh|block of columns|wrong columns|head'?s? (own )?(block|columns)"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    D, Dc = W_q.shape[0], W_uk.shape[0]
    out = np.zeros((H, D, Dc))
    for h in range(H):
        Wq_h = W_q[:, h::H]
        Wuk_h = W_uk[:, h::H]
        out[h] = Wq_h @ Wuk_h.T
    return out
'''
