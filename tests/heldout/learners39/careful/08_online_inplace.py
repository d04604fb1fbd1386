NOTEBOOK = "08_efficient_attention"
CELL = "online_softmax_update"
MISTAKE = "Updates l and acc in place with *= and +=, modifying the caller's arrays."
NAMED_IF = r"in[- ]place|modif|chang.{0,30}input|caller|copy"
CODE = '''
def online_softmax_update(m, l, acc, scores, V_tile):
    """Fold one tile of keys into the running softmax statistics."""
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(np.isinf(m_new), 0.0, m_new)
    scale = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    l *= scale
    l += p.sum(axis=-1)
    acc *= scale[..., None]
    acc += p @ V_tile
    return m_new, l, acc
'''
