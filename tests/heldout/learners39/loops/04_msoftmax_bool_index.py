NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Blocks scores with boolean indexing s[~mask] = -inf, which needs a mask of the full shape and fails for broadcastable masks such as (Lq, Lk) or (B, 1, Lk).'
NAMED_IF = r'broadcast|boolean index|index|shape'
CODE = '''def masked_softmax(scores, mask):
    """Softmax over the last axis, restricted to the keys where mask is True."""
    s = np.array(scores, dtype=float)
    s[~mask] = -np.inf
    m = np.max(s, axis=-1, keepdims=True)
    m[~np.isfinite(m)] = 0.0
    e = np.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1.0
    return e / total
'''
