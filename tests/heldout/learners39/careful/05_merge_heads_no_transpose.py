NOTEBOOK = "05_multi_head_attention"
CELL = "merge_heads"
MISTAKE = "Reshapes (B, H, L, Dh) straight to (B, L, H*Dh) without first moving the head axis next to Dh, which scrambles tokens and heads."
NAMED_IF = r"transpose|swap|axes|head axis|without mov|reshape"
CODE = '''
def merge_heads(X):
    """Put the heads side by side again (the inverse of split_heads)."""
    X = np.asarray(X)
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)
'''
