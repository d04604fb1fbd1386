NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Reshapes straight to (B, H, L, Dh) without the transpose, so heads get whole tokens instead of column blocks.'
NAMED_IF = r'transpos|swapaxes|reshape\(B, ?H|memory order|without .{0,20}transpose'
CODE = '''def split_heads(X, num_heads):
    """Cut the features of every token into num_heads heads."""
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, num_heads, L, Dh)
'''
