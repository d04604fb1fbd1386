NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Rescales only part a; part b is added unscaled, which is right only when b holds the larger max.'
NAMED_IF = 'rescal|factor|e\\^|both parts|smaller max|part b|\\bm_b\\b|exp\\(m'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    m_safe = np.where(np.isinf(m), 0.0, m)
    fa = np.exp(m_a - m_safe)
    l = fa * l_a + l_b
    acc = fa[..., None] * acc_a + acc_b
    return m, l, acc
'''
