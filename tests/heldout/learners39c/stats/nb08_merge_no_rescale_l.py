NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'adds the normalisers l_a + l_b without rescaling them to the common maximum (acc is rescaled)'
NAMED_IF = 'rescal|exp\\(|factor|max|normali[sz]er|\\bl\\b|l_?a|l_?b|scale'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    """Merge the softmax statistics of two disjoint sets of keys, exactly."""
    m = np.maximum(m_a, m_b)
    m_safe = np.where(np.isneginf(m), 0.0, m)
    sa = np.exp(m_a - m_safe); sb = np.exp(m_b - m_safe)
    l = l_a + l_b
    acc = sa[..., None] * acc_a + sb[..., None] * acc_b
    return m, l, acc
'''
