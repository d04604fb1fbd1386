NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "loops heads 1..H and slices with h*Dh, so every head takes the next head's block (the last is empty)"
NAMED_IF = 'off.?by.?one|shift|head (0|index)|1.?based|wrong head|next head|index|h ?\\* ?Dh|zero'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    W_v = np.asarray(W_v, dtype=float); W_o = np.asarray(W_o, dtype=float)
    D = W_v.shape[0]
    Dh = D // num_heads
    out = []
    for h in range(1, num_heads + 1):
        out.append(W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh, :])
    return np.stack(out)
'''
