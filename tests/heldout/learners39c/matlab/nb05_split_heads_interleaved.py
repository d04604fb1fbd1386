NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'reshapes the features as (Dh, H) (column-major thinking): head h gets every H-th column instead of a contiguous block'
NAMED_IF = 'interleav|strided|every H|column|contiguous|block|order|reshape|\\(Dh, ?H\\)|h ?\\* ?Dh'
CODE = '''def split_heads(X, num_heads):
    """Cut the features of every token into num_heads heads."""
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, L, Dh, num_heads).transpose(0, 3, 1, 2)
'''
