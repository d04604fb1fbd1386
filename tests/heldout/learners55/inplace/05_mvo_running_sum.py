NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = 'Accumulates the products into one running matrix (acc += ...) and stores acc for each head without resetting it, so head h gets the sum of heads 0..h.'
NAMED_IF = r"cumulat|running|accumul|sum of (the )?(heads|previous)|previous heads|reset|prefix|heads? 0"
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    out = np.zeros((num_heads, D, D))
    acc = np.zeros((D, D))
    for h in range(num_heads):
        acc += W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh]
        out[h] = acc
    return out
'''
