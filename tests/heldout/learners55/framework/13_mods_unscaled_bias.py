NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Applies score_mod to the raw scores Q K^T and only then divides by sqrt(Dh) (the T5 bias habit), instead of modding the scaled scores.'
NAMED_IF = 'unscaled|raw scores|before (the )?(scal|divi)|(scal|divi)[a-z]* (after|before)|order of (the )?(scal|mod)|sqrt|√'
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    s = Q @ np.swapaxes(K, -1, -2)
    if score_mod is not None:
        s = score_mod(s, b, h, q, k)
    s = s / np.sqrt(Dh)
    if mask_mod is None:
        allowed = np.ones(s.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), s.shape)
    s = np.where(allowed, s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(allowed, np.exp(s - top), 0.0)
    tot = e.sum(axis=-1, keepdims=True)
    w = e / np.where(tot > 0, tot, 1.0)
    return w @ V, w
'''
