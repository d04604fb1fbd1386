NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Reshapes (B, H, L, Dh) straight to (B, L, H*Dh) without bringing the token axis back first.'
NAMED_IF = 'transpos|order|swap|axes|reshape|inverse'
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)
'''
