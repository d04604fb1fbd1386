NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Adds the tile's terms relative to the new max but never rescales the old l and acc by e^(m - m')."
NAMED_IF = r"rescal|e\^\{?\(?m ?- ?m|factor|old (sum|statistic|max|acc)|exp\(m ?- ?m|previous (sum|stat|max)|running (sum|statistic)"
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    safe = np.where(np.isfinite(m_new), m_new, 0.0)
    p = np.exp(scores - safe[..., None])
    l_new = l + p.sum(axis=-1)
    acc_new = acc + p @ V_tile
    return m_new, l_new, acc_new
'''
