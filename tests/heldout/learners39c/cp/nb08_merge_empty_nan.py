NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'does not guard the empty part: exp(-inf - (-inf)) gives NaN when both parts (or the max) are -inf'
NAMED_IF = 'empty|nan|-inf|inf|guard'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    """Merge the softmax statistics of two disjoint sets of keys, exactly."""
    m = np.maximum(m_a, m_b)
    fa = np.exp(m_a - m)
    fb = np.exp(m_b - m)
    return m, fa * l_a + fb * l_b, fa[..., None] * acc_a + fb[..., None] * acc_b
'''
