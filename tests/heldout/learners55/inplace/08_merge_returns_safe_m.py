NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Replaces -inf by 0 in the merged max in place (m[~isfinite] = 0) and returns that copy, so an empty merge reports m = 0 instead of -inf.'
NAMED_IF = r"-inf|-∞|true (merged )?max|\bcopy\b|empty|0 instead|instead of -inf|infinite"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    m[~np.isfinite(m)] = 0.0
    ea = np.exp(m_a - m)
    eb = np.exp(m_b - m)
    return m, ea * l_a + eb * l_b, ea[..., None] * acc_a + eb[..., None] * acc_b
'''
