NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Takes the tile's maximum and sum over axis=1 by habit: the keys for one (Lq, T) tile, but the queries for a batch (B, Lq, T)."
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum'
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=1))
    m_safe = np.where(np.isfinite(m_new), m_new, 0.0)
    scale = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    l_new = scale * l + p.sum(axis=1)
    acc_new = scale[..., None] * acc + p @ V_tile
    return m_new, l_new, acc_new
'''
