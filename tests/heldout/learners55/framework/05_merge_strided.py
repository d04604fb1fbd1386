NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = "Merges with the heads as the fastest axis ((B, L, Dh, H) then reshape, the einops '(d h)' habit), so head h lands in the strided columns h, h+H, ... ."
NAMED_IF = 'strid|interleav|every H|h ?\\+ ?H|\\(d h\\)|block|consecutive|contiguous|order'
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)
'''
