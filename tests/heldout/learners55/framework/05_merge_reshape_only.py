NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Reshapes (B, H, L, Dh) straight to (B, L, H*Dh) without first moving the token axis back in front of the heads.'
NAMED_IF = 'reshape|transpos|swap|without (moving|exchanging)|order|scrambl|mix(es|ed)? (the )?(tokens|positions)|interleav'
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)
'''
