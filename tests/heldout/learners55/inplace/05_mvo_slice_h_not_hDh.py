NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "Slices head h as h:h+Dh instead of h*Dh:(h+1)*Dh, so the heads' blocks overlap."
NAMED_IF = r"block|slice|columns? h\b|h ?\* ?Dh|offset|wrong (columns|rows|block)|overlap|h:h ?\+ ?Dh"
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    out = np.empty((num_heads, D, D))
    for h in range(num_heads):
        out[h] = W_v[:, h:h + Dh] @ W_o[h:h + Dh]
    return out
'''
