NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Multiplies the (..., Lq) factors into the (..., Lq, Dv) accumulators without a new axis, so they broadcast along Dv instead of Lq.'
NAMED_IF = r"broadcast|\[\.\.\., ?None\]|\bDv\b|axis|shape|new axis|per query"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    safe = np.where(np.isfinite(m), m, 0.0)
    ea = np.exp(m_a - safe)
    eb = np.exp(m_b - safe)
    return m, ea * l_a + eb * l_b, ea * acc_a + eb * acc_b
'''
