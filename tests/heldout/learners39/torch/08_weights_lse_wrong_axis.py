NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'Subtracts the log-sum-exp along the key axis (lse.unsqueeze(-2), one entry per column) instead of one per query row.'
NAMED_IF = r"column|per key|wrong axis|\[\.\.\., ?None\]|broadcast|per query|per row|each row|unsqueeze"
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    Q, K, lse = torch.as_tensor(Q), torch.as_tensor(K), torch.as_tensor(logsumexp)
    S = torch.matmul(Q, K.transpose(-2, -1)) / (Q.shape[-1] ** 0.5)
    return torch.exp(S - lse.unsqueeze(-2)).numpy()
'''
