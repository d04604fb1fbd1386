NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = "Aligns the causal mask bottom-right (j <= i + Lk - Lq, as for queries that are the newest rows of a cache) instead of top-left as SDPA's is_causal."
NAMED_IF = 'align|bottom|top[- ]left|offset|shift|lk\\s*-\\s*lq|diagonal'
CODE = '''\
def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    i = np.arange(Lq)[:, None]          # (Lq, 1)
    j = np.arange(Lk)[None, :]          # (1, Lk)
    return j <= i + (Lk - Lq)           # (Lq, Lk)
'''
