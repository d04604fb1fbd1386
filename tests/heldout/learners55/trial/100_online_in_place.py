NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Updates l and acc in place with *= and += (the caller's arrays change)."
NAMED_IF = 'in[- ]place|inputs?|modif|chang|copy|caller|\\+=|\\*='
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(np.isinf(m_new), 0.0, m_new)
    f = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    l *= f
    l += p.sum(axis=-1)
    acc *= f[..., None]
    acc += p @ V_tile
    return m_new, l, acc
'''
