NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = 'Replaces the -inf of masked keys by -1e9 first (a finite fill habit), so a query that has seen only masked keys gets a finite max and the masked keys weigh as much as real ones.'
NAMED_IF = '1e9|1e\\+?09|-?10\\^?9|large negative|finite (fill|value|number|constant)|uniform|instead of -?inf|masked keys? (weigh|count|contribut)'
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    scores = np.where(np.isneginf(scores), -1e9, scores)
    m_new = np.maximum(m, scores.max(axis=-1))
    scale = np.exp(m - m_new)
    p = np.exp(scores - m_new[..., None])
    l_new = scale * l + p.sum(axis=-1)
    acc_new = scale[..., None] * acc + p @ V_tile
    return m_new, l_new, acc_new
'''
