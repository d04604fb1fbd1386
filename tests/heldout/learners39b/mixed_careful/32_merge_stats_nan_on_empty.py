NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Computes the factors exp(m_a - m) and exp(m_b - m) without guarding m = -inf, so merging with an empty part (or two empty parts) gives exp(-inf + inf) = NaN.'
NAMED_IF = 'nan|empty|-inf|−∞|-∞|no keys|inf ?- ?inf|guard'
CODE = '''\
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    """Merge the softmax statistics of two disjoint sets of keys, exactly."""
    m = np.maximum(m_a, m_b)                       # (..., Lq)
    f_a = np.exp(m_a - m)
    f_b = np.exp(m_b - m)
    l = f_a * l_a + f_b * l_b                      # (..., Lq)
    acc = f_a[..., None] * acc_a + f_b[..., None] * acc_b     # (..., Lq, Dv)
    return m, l, acc
'''
