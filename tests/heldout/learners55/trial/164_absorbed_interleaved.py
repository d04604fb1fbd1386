NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = 'Reshapes the columns as (Dh, H) instead of (H, Dh), so head h gets every H-th column instead of its block.'
NAMED_IF = 'column|block|interleav|h ?\\* ?Dh|head h|reshape|every H'
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    D = W_q.shape[0]; Dc = W_uk.shape[0]
    Dh = W_q.shape[1] // H
    Wq = W_q.reshape(D, Dh, H)
    Wk = W_uk.reshape(Dc, Dh, H)
    return np.einsum("dkh,ckh->hdc", Wq, Wk)
'''
