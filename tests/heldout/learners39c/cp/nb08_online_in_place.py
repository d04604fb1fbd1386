NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "updates l and acc in place (*=, +=), changing the caller's arrays"
NAMED_IF = 'in.?place|modif|caller|input arrays?|mutat|chang|\\+=|\\*=|overwr'
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    """Fold one tile of keys into the running softmax statistics."""
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(np.isneginf(m_new), 0.0, m_new)
    alpha = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    l *= alpha
    l += p.sum(axis=-1)
    acc *= alpha[..., None]
    acc += p @ V_tile
    return m_new, l, acc
'''
