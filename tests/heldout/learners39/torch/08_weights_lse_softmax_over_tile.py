NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = 'Ignores the log-sum-exp and takes a softmax over the given keys, so the weights of one tile are renormalised to sum to one instead of being their weights in the full attention.'
NAMED_IF = r"softmax|renormali|sum to (one|1)|sums? to (one|1)|ignor.{0,20}logsumexp|logsumexp.{0,20}(unused|ignored)"
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    Q, K = torch.as_tensor(Q), torch.as_tensor(K)
    S = Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5
    return torch.softmax(S, dim=-1).numpy()
'''
