NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Reshapes (B, L, D) straight to (B, H, L, Dh) with no transpose, so a head holds whole tokens instead of a block of columns of every token.'
NAMED_IF = r"reshape|transpos|swap|whole (first )?token|wrong split|tokens? (and|instead)|order|columns? h ?\* ?Dh"
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    X = X.reshape(B, num_heads, L, D // num_heads)
    return X
'''
