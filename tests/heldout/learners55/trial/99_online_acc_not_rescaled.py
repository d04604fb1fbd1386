NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = 'Rescales the old normaliser but not the old accumulator when the max rises.'
NAMED_IF = 'rescal|\\bacc|accumulator|factor|e\\^\\{?m ?- ?m|old'
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    m_safe = np.where(np.isinf(m_new), 0.0, m_new)
    f = np.exp(m - m_safe)
    p = np.exp(scores - m_safe[..., None])
    return m_new, f * l + p.sum(axis=-1), acc + p @ V_tile
'''
