NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_heads'
MISTAKE = "Moves the head axis last before reshaping ((B, L, Dh, H)), so the heads' features are interleaved instead of side by side."
NAMED_IF = 'interleav|stride|columns|block|order|side by side|h ?\\* ?Dh|inverse'
CODE = '''def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)
'''
