NOTEBOOK = "13_attention_variants"
CELL = 'absorbed_query_map'
MISTAKE = 'Multiplies in the wrong order, W_uk_h @ W_q_h.T, giving the transposed (Dc, D) map for each head.'
NAMED_IF = r"transpos|wrong order|\(H, ?Dc, ?D\)|\(Dc, ?D\)|Dc, D\b|W_uk.{0,10}W_q|order of the (product|factors)|reversed product"
CODE = '''
def absorbed_query_map(W_q, W_uk, H):
    """MLA's key up-projection absorbed into the query map, head by head."""
    Dh = W_q.shape[1] // H
    maps = []
    for h in range(H):
        Wq_h = W_q[:, h * Dh:(h + 1) * Dh]
        Wuk_h = W_uk[:, h * Dh:(h + 1) * Dh]
        maps.append(Wuk_h @ Wq_h.T)
    return np.stack(maps)
'''
