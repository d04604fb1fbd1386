NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Cuts the features as (Dh, H) instead of (H, Dh) and transposes the axes to fix the shape, so head h gets every H-th column instead of a block.'
NAMED_IF = 'interleav|stride|every H|columns|contiguous|block|order|h ?\\* ?Dh'
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, L, Dh, num_heads).transpose(0, 3, 1, 2)
'''
