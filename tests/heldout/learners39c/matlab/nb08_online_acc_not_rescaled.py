NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = 'rescales l by exp(m_old - m_new) but forgets to rescale acc'
NAMED_IF = 'rescal|acc|accumulat|factor|exp|old max|scale'
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    """Fold one tile of keys into the running softmax statistics."""
    m_tile = np.max(scores, axis=-1)
    m_new = np.maximum(m, m_tile)
    m_safe = np.where(np.isfinite(m_new), m_new, 0.0)
    p = np.exp(scores - m_safe[..., None])
    l_new = np.exp(m - m_safe) * l + np.sum(p, axis=-1)
    acc_new = acc + p @ V_tile
    return m_new, l_new, acc_new
'''
