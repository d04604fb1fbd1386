NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Reshapes (B, H, L, Dh) straight to (B, L, H*Dh) without moving the token axis back in front of the head axis.'
NAMED_IF = r'transpos|swapaxes|memory order|without .{0,20}transpose'
CODE = '''def merge_heads(X):
    """Put the heads side by side again (the inverse of split_heads)."""
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)
'''
