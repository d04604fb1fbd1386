NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = 'Transposes to (B, L, Dh, H) before the reshape, so the heads end up interleaved column by column instead of side by side.'
NAMED_IF = r"interleav|strid|order|transpos|columns|side by side|consecutive|block"
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    X = X.transpose(0, 2, 3, 1)
    return X.reshape(B, L, H * Dh)
'''
