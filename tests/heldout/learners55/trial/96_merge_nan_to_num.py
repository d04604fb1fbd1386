NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Skips the -inf guard and patches the NaN of two empty parts with np.nan_to_num, which also turns the merged max -inf into a huge finite number.'
NAMED_IF = '-\\s?inf|infinit|empty|nan_to_num|finite|m ?= ?-|no key'
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m = np.maximum(m_a, m_b)
    fa = np.exp(m_a - m)
    fb = np.exp(m_b - m)
    l = fa * l_a + fb * l_b
    acc = fa[..., None] * acc_a + fb[..., None] * acc_b
    return np.nan_to_num(m), np.nan_to_num(l), np.nan_to_num(acc)
'''
