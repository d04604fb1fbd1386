NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Keeps the trailing axis on the rescaled normaliser (keepdims habit): l comes back as (..., Lq, 1) instead of (..., Lq).'
NAMED_IF = 'shape|keepdims|extra (axis|dimension)|trailing|\\(\\.\\.\\., ?Lq, ?1\\)|squeeze'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    m_safe = np.where(np.isfinite(m), m, 0.0)[..., None]
    sa = np.exp(m_a[..., None] - m_safe)
    sb = np.exp(m_b[..., None] - m_safe)
    l = sa * l_a[..., None] + sb * l_b[..., None]
    acc = sa * acc_a + sb * acc_b
    return m, l, acc
'''
