NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Reads the mask as True = masked out: keeps the keys the mask mod forbids and drops the allowed ones.'
NAMED_IF = r"flip|invert|inverse|negat|opposite|complement|True (means|=) (masked|forbidden|blocked)|the other way round|~mask|not allowed keys"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)
    if mask_mod is not None:
        masked = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)   # positions to mask out
        scores = np.where(masked, -np.inf, scores)
    top = scores.max(-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(scores - top)
    s = e.sum(-1, keepdims=True)
    w = np.where(s > 0, e / np.maximum(s, 1e-300), 0.0)
    return w @ V, w
'''
