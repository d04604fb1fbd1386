NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Reshapes (B, H, L, Dh) straight to (B, L, H*Dh) without bringing L in front of H first.'
NAMED_IF = r"transpos|swap|order|reshape|axes|tokens? (and|instead)"
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    X = X.reshape(B, L, H * Dh)
    return X
'''
