NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Applies the score mod to the raw q·k scores and divides by sqrt(Dh) after the mod, so the mod sees unscaled scores.'
NAMED_IF = r"unscaled|raw scores|before (the )?scal|scal\w* (after|afterwards)|after the (score )?mod|mod (on|to) the (raw|unscaled)|not yet scaled"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    raw = Q @ np.swapaxes(K, -1, -2)
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    if score_mod is not None:
        raw = score_mod(raw, b, h, q, k)
    scores = raw / np.sqrt(Dh)
    if mask_mod is None:
        allowed = np.ones(scores.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
    scores = np.where(allowed, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(allowed, np.exp(scores - top), 0.0)
    s = e.sum(axis=-1, keepdims=True)
    w = np.where(s > 0, e / np.where(s > 0, s, 1.0), 0.0)
    return w @ V, w
'''
