NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Does the merge in torch and returns torch tensors instead of numpy arrays.'
NAMED_IF = r"tensor|torch|ndarray|numpy array|type"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m_a, l_a, acc_a = torch.as_tensor(m_a), torch.as_tensor(l_a), torch.as_tensor(acc_a)
    m_b, l_b, acc_b = torch.as_tensor(m_b), torch.as_tensor(l_b), torch.as_tensor(acc_b)
    m = torch.maximum(m_a, m_b)
    m_safe = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    sa, sb = torch.exp(m_a - m_safe), torch.exp(m_b - m_safe)
    l = sa * l_a + sb * l_b
    acc = sa[..., None] * acc_a + sb[..., None] * acc_b
    return m, l, acc
'''
