NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Broadcasts the factors with scale[:, None] (right for a 1-D (Lq,) factor only), so with a batch axis the factors line up with the wrong axes.'
NAMED_IF = 'broadcast|batch|leading|axis|\\[\\.\\.\\., ?None\\]|shape|dimension'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    m_safe = np.where(np.isinf(m), 0.0, m)
    fa = np.exp(m_a - m_safe)
    fb = np.exp(m_b - m_safe)
    l = fa * l_a + fb * l_b
    acc = fa[:, None] * acc_a + fb[:, None] * acc_b
    return m, l, acc
'''
