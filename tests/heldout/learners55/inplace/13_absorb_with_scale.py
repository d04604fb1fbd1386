NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = "Divides each absorbed map in place by sqrt(Dh), putting the attention's scale into the map."
NAMED_IF = r"scal|sqrt|√"
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    Dh = W_q.shape[1] // H
    out = np.empty((H, W_q.shape[0], W_uk.shape[0]))
    for h in range(H):
        out[h] = W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T
    out /= np.sqrt(Dh)
    return out
'''
