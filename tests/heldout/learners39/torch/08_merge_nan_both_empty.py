NOTEBOOK = '08_efficient_attention'
CELL = 'merge_softmax_stats'
MISTAKE = 'Rescales with exp(m_a - m) and exp(m_b - m) without replacing an infinite m by 0, so merging two empty parts gives NaN.'
NAMED_IF = r"nan|-inf|both (parts )?(are )?empty|two empty|no key|inf - inf|−∞"
CODE = '''def merge_softmax_stats(m_a, l_a, acc_a, m_b, l_b, acc_b):
    m_a, l_a, acc_a, m_b, l_b, acc_b = (torch.as_tensor(x) for x in (m_a, l_a, acc_a, m_b, l_b, acc_b))
    m = torch.maximum(m_a, m_b)
    alpha = torch.exp(m_a - m)
    beta = torch.exp(m_b - m)
    l = alpha * l_a + beta * l_b
    acc = alpha.unsqueeze(-1) * acc_a + beta.unsqueeze(-1) * acc_b
    return m.numpy(), l.numpy(), acc.numpy()
'''
