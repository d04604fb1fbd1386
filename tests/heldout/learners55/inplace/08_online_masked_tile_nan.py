NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = 'Exponentiates with the new max directly, so a query whose running max and whole tile are -inf gets -inf - (-inf) = nan.'
NAMED_IF = r"nan|-inf|-∞|masked (tile|row|keys)|all (its )?scores (are )?-inf|fully masked|empty|no key"
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_new = np.maximum(m, scores.max(axis=-1))
    scale = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    return m_new, scale * l + p.sum(axis=-1), scale[..., None] * acc + p @ V_tile
'''
