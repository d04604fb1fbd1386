NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = "Reshapes (B, L, D) straight to (B, H, L, Dh) without the transpose, so a 'head' holds pieces of several tokens."
NAMED_IF = 'reshape|transpos|swap|without (moving|exchanging)|order|scrambl|mix(es|ed)? (the )?(tokens|positions)|interleav'
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, num_heads, L, D // num_heads)
'''
