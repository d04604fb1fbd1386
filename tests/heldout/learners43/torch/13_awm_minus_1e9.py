NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Fills forbidden scores with -1e9 instead of -inf, so a query with no allowed key gets uniform weights over all keys instead of zero weights.'
NAMED_IF = r"uniform|no allowed key|no key (is )?allowed|fully masked|every key (is )?(masked|forbidden)|all keys (masked|forbidden)|zero weights|-1e9|large negative|finite (fill|value)|nothing allowed|no key at all"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    Qt, Kt, Vt = (torch.as_tensor(np.asarray(a, dtype=float)) for a in (Q, K, V))
    B, H, Lq, Dh = Qt.shape
    Lk = Kt.shape[-2]
    scores = Qt @ Kt.transpose(-1, -2) / Dh ** 0.5
    b = torch.arange(B).view(B, 1, 1, 1)
    h = torch.arange(H).view(1, H, 1, 1)
    q = torch.arange(Lq).view(1, 1, Lq, 1)
    k = torch.arange(Lk).view(1, 1, 1, Lk)
    if score_mod is not None:
        scores = torch.as_tensor(score_mod(scores, b, h, q, k))
    if mask_mod is not None:
        allowed = torch.as_tensor(mask_mod(b, h, q, k)).expand(scores.shape)
        scores = scores.masked_fill(~allowed, -1e9)
    weights = torch.softmax(scores, dim=-1)
    return (weights @ Vt).numpy(), weights.numpy()
'''
