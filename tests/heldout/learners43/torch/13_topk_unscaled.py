NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Forgets the 1/sqrt(Dh) scale: the softmax over the kept keys uses raw q·k scores.'
NAMED_IF = r"sqrt|√|unscaled|scal|temperature|too (sharp|peaked)"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Qt, Kt, Vt = (torch.as_tensor(np.asarray(a, dtype=float)) for a in (Q, K, V))
    scores = Qt @ Kt.transpose(-1, -2)
    order = torch.argsort(-scores, dim=-1, stable=True)
    keep = torch.zeros_like(scores, dtype=torch.bool).scatter(-1, order[..., :k], True)
    w = torch.softmax(scores.masked_fill(~keep, -torch.inf), dim=-1)
    return (w @ Vt).numpy(), w.numpy()
'''
