NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Scales the scores by 1/Dh instead of 1/sqrt(Dh).'
NAMED_IF = r"sqrt|√|1 ?/ ?D_?h\b|instead of 1/sqrt|scal\w* by D|temperature|too (flat|soft)"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    scores = Q @ np.swapaxes(K, -1, -2) / Dh
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)
    allowed = np.ones(scores.shape, dtype=bool) if mask_mod is None else np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
    scores = np.where(allowed, scores, -np.inf)
    top = scores.max(-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1), 0.0)
    return w @ V, w
'''
