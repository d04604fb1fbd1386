NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = 'Stacks W_uk_h @ W_q_h.T, the (Dc, D) transposes of the maps, giving (H, Dc, D).'
NAMED_IF = r"transpos|shape|\(H, ?Dc, ?D\)|\border|\(H, ?D, ?Dc\)"
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    Dh = W_q.shape[1] // H
    out = []
    for h in range(H):
        sl = slice(h * Dh, (h + 1) * Dh)
        out.append(W_uk[:, sl] @ W_q[:, sl].T)
    return np.stack(out)
'''
