NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Returns a nested Python list of per-head slices instead of a (B, H, L, Dh) array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def split_heads(X, num_heads):
    """Cut the features of every token into num_heads heads."""
    B, L, D = X.shape
    Dh = D // num_heads
    out = []
    for b in range(B):
        heads = []
        for h in range(num_heads):
            heads.append(X[b, :, h * Dh:(h + 1) * Dh])
        out.append(heads)
    return out
'''
