NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = "Aligns the diagonal bottom-right (flash-attn's convention: j <= i + Lk - Lq) instead of top-left as SDPA's is_causal."
NAMED_IF = 'bottom[- ]right|top[- ]left|align|offset|Lk ?- ?Lq|shift'
CODE = '''def causal_mask(Lq, Lk):
    i = np.arange(Lq)[:, None]
    j = np.arange(Lk)[None, :]
    return j <= i + (Lk - Lq)
'''
