NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Reshapes (B, L, D) straight to (B, H, L, Dh) without the transpose, so a head mixes whole tokens instead of holding a block of columns of every token.'
NAMED_IF = 'transpos|reshape|order|columns|swap|axes|head h|whole (first )?token|mix'
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, num_heads, L, D // num_heads)
'''
