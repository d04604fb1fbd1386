NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = 'Stacks the heads along the last axis (the channels-last habit), returning (D, Dc, H) instead of (H, D, Dc).'
NAMED_IF = 'axis|head axis|\\(D, ?Dc, ?H\\)|stack|last|layout|order|first axis'
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    Dh = W_q.shape[1] // H
    maps = [W_q[:, h * Dh:(h + 1) * Dh] @ W_uk[:, h * Dh:(h + 1) * Dh].T for h in range(H)]
    return np.stack(maps, axis=-1)
'''
