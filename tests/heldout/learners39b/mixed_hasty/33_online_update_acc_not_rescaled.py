NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Rescales the normaliser l by exp(m - m') when the max rises but forgets to rescale the accumulator acc."
NAMED_IF = 'rescal|acc(umulator)?|factor|exp\\(? ?m|old (max|statistics)|not (re)?scaled'
CODE = '''\
def online_softmax_update(m, l, acc, scores, V_tile):
    """Fold one tile of keys into the running softmax statistics."""
    m_new = np.maximum(m, scores.max(axis=-1))                 # (..., Lq)
    m_safe = np.where(np.isneginf(m_new), 0.0, m_new)
    factor = np.exp(m - m_safe)                                # (..., Lq)
    p = np.exp(scores - m_safe[..., None])                     # (..., Lq, T)
    l_new = factor * l + p.sum(axis=-1)
    acc_new = acc + p @ V_tile                                 # (..., Lq, Dv)
    return m_new, l_new, acc_new
'''
