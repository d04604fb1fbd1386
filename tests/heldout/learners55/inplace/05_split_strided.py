NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Reshapes to (B, L, Dh, H) and moves H forward, so head h holds the strided columns h, h+H, ... instead of a consecutive block.'
NAMED_IF = r"strid|interleav|every H|columns? h, ?h ?\+|consecutive|block|(Dh, ?H)|wrong (order|split)|reshape order|order"
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    X = X.reshape(B, L, D // num_heads, num_heads)
    X = X.transpose(0, 3, 1, 2)
    return X
'''
