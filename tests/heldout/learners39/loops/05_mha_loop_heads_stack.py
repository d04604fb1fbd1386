NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Loops over the heads and stacks their weights with np.array, giving (H, B, Lq, Lk) instead of (B, H, Lq, Lk).'
NAMED_IF = r'\(H, ?B|axis|order of (the )?axes|head axis|stack'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """Multi-head attention: split into heads, attend in each, merge, project."""
    B, Lq, D = X_q.shape
    H = num_heads
    Dh = D // H
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    outs = []
    weights = []
    for h in range(H):
        cols = slice(h * Dh, (h + 1) * Dh)
        o, w = attnlab.scaled_dot_product_attention(Q[:, :, cols], K[:, :, cols], V[:, :, cols], mask)
        outs.append(o)
        weights.append(w)
    out = np.concatenate(outs, axis=-1) @ W_o
    return out, np.array(weights)
'''
