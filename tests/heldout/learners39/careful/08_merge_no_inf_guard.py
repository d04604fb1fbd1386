NOTEBOOK = "08_efficient_attention"
CELL = "merge_softmax_stats"
MISTAKE = "Rescales with exp(m_a - m) directly, so when both parts are empty (m = -inf) it computes -inf - (-inf) = NaN."
NAMED_IF = r"empty|-inf|inf ?- ?inf|both parts|nan"
CODE = '''
def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    """Merge the softmax statistics of two disjoint sets of keys, exactly."""
    m = np.maximum(m_a, m_b)
    with np.errstate(invalid="ignore"):
        a = np.exp(m_a - m)
        b = np.exp(m_b - m)
    l = a * l_a + b * l_b
    acc = a[..., None] * acc_a + b[..., None] * acc_b
    return m, l, acc
'''
