NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Concatenates the heads along axis 1 (the token axis), giving (B, H*L, Dh) instead of (B, L, H*Dh).'
NAMED_IF = r'axis|concatenat|\(B, ?H ?\* ?L|tokens? axis'
CODE = '''def merge_heads(X):
    """Put the heads side by side again (the inverse of split_heads)."""
    B, H, L, Dh = X.shape
    return np.concatenate([X[:, h] for h in range(H)], axis=1)
'''
