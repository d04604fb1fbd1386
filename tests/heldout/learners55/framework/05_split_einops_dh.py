NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = "Splits the features as (Dh, H), the einops pattern 'b l (d h) -> b h l d' of another codebase, so head h gets the strided columns h, h+H, ... instead of a block."
NAMED_IF = 'strid|interleav|every H|h ?\\+ ?H|\\(d h\\)|block|consecutive|contiguous|order'
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, L, Dh, num_heads).transpose(0, 3, 1, 2)
'''
