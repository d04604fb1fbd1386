NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = "Transposes to (B, L, Dh, H) instead of (B, L, H, Dh) before reshaping, so the heads' features are interleaved instead of head h filling columns h*Dh:(h+1)*Dh."
NAMED_IF = 'interleav|order|transpos|axes|permut|\\(0, ?2, ?3, ?1\\)|head.{0,20}(column|block)|column'
CODE = '''\
def merge_heads(X):
    """Put the heads side by side again (the inverse of split_heads)."""
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)     # (B, L, H*Dh)
'''
