NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Rescales with m_a - m without replacing an infinite m by 0, so merging two empty parts gives -inf - (-inf) = nan.'
NAMED_IF = r"nan|empty|-inf|-∞|both (parts )?(are )?empty|infinite|no keys"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    ea = np.exp(m_a - m)
    eb = np.exp(m_b - m)
    return m, ea * l_a + eb * l_b, ea[..., None] * acc_a + eb[..., None] * acc_b
'''
