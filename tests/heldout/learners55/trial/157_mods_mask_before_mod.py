NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Applies the mask (-inf) before the score mod, so a score mod like soft-capping turns masked -inf scores back into finite ones.'
NAMED_IF = 'order|before|after|mask(ed)? (key|score)s?.*mod|mod.*mask|soft-?cap|-\\s?inf'
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    b = np.arange(B).reshape(B, 1, 1, 1); h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1); k = np.arange(Lk).reshape(1, 1, 1, Lk)
    allowed = np.ones(S.shape, dtype=bool) if mask_mod is None else np.broadcast_to(mask_mod(b, h, q, k), S.shape)
    S = np.where(allowed, S, -np.inf)
    if score_mod is not None:
        S = score_mod(S, b, h, q, k)
    m = S.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.where(np.isneginf(S), 0.0, np.exp(S - m))
    t = e.sum(axis=-1, keepdims=True)
    w = e / np.where(t > 0, t, 1.0)
    return w @ V, w
'''
