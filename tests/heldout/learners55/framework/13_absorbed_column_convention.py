NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = 'Writes the product in the column-vector convention, W_uk_h W_q_h^T, giving each head the (Dc, D) transpose of the map.'
NAMED_IF = 'transpos|swap|\\(H, ?Dc, ?D\\)|order|column[- ]vector|row[- ]vector|shape'
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    Dh = W_q.shape[1] // H
    return np.stack([W_uk[:, h * Dh:(h + 1) * Dh] @ W_q[:, h * Dh:(h + 1) * Dh].T for h in range(H)])
'''
