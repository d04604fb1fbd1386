NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Takes the softmax over the queries (dim=-2) instead of over the keys.'
NAMED_IF = r"axis|dim\b|over the queries|columns?|wrong (axis|dimension)|normali[sz]\w* over (the )?quer"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    Qt, Kt, Vt = (torch.as_tensor(np.asarray(a, dtype=float)) for a in (Q, K, V))
    B, H, Lq, Dh = Qt.shape
    Lk = Kt.shape[-2]
    scores = Qt @ Kt.transpose(-1, -2) / Dh ** 0.5
    b = torch.arange(B).view(B, 1, 1, 1); h = torch.arange(H).view(1, H, 1, 1)
    q = torch.arange(Lq).view(1, 1, Lq, 1); k = torch.arange(Lk).view(1, 1, 1, Lk)
    if score_mod is not None:
        scores = torch.as_tensor(score_mod(scores, b, h, q, k))
    allowed = torch.ones_like(scores, dtype=torch.bool)
    if mask_mod is not None:
        allowed = torch.as_tensor(mask_mod(b, h, q, k)).expand(scores.shape)
    scores = scores.masked_fill(~allowed, -torch.inf)
    weights = torch.nan_to_num(torch.softmax(scores, dim=-2), nan=0.0)
    return (weights @ Vt).numpy(), weights.numpy()
'''
