NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Wraps the caller's arrays with torch.from_numpy and updates l and acc in place (mul_/add_), so the input arrays are modified."
NAMED_IF = r"in.?place|modif|mutat|overwr|caller|(changed|changes) (the|its|your) input|input arrays? (was|were|are) changed"
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m_t, l_t, acc_t = torch.from_numpy(m), torch.from_numpy(l), torch.from_numpy(acc)
    s = torch.as_tensor(scores)
    v = torch.as_tensor(V_tile)
    m_new = torch.maximum(m_t, s.amax(dim=-1))
    m_safe = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
    rescale = torch.exp(m_t - m_safe)
    p = torch.exp(s - m_safe.unsqueeze(-1))
    l_t.mul_(rescale).add_(p.sum(dim=-1))
    acc_t.mul_(rescale.unsqueeze(-1)).add_(p @ v)
    return m_new.numpy(), l_t.numpy(), acc_t.numpy()
'''
