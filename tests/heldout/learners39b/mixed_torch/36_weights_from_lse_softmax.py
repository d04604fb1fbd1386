NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'Ignores the log-sum-exp and takes torch.softmax of the scores over the keys it is given: right for all the keys, wrong for one tile (whose weights must not sum to one).'
NAMED_IF = 'softmax|renormali|sum to (one|1)|tile|ignor.{0,20}log[- ]?sum[- ]?exp|logsumexp (unused|ignored|not used)'
CODE = '''\
def weights_from_logsumexp(Q, K, logsumexp):
    """Recompute attention weights from each query's log-sum-exp."""
    Qt = torch.as_tensor(Q)
    Kt = torch.as_tensor(K)
    scores = Qt @ Kt.transpose(-1, -2) / Qt.shape[-1] ** 0.5     # (..., Lq, Lk)
    return torch.softmax(scores, dim=-1).numpy()
'''
