NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = "Applies the score mod to the raw scores and divides by sqrt(Dh) afterwards, so the mod's additions are scaled too."
NAMED_IF = r"scal|before|after|\border|sqrt|√|raw scores"
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    S = Q @ np.swapaxes(K, -1, -2)
    if score_mod is not None:
        S = score_mod(S, b, h, q, k)
    S = S / np.sqrt(Dh)
    if mask_mod is not None:
        S = np.where(np.broadcast_to(mask_mod(b, h, q, k), S.shape), S, -np.inf)
    top = S.max(axis=-1, keepdims=True)
    S -= np.where(np.isfinite(top), top, 0.0)
    np.exp(S, out=S)
    tot = S.sum(axis=-1, keepdims=True)
    S /= np.where(tot > 0, tot, 1.0)
    return S @ V, S
'''
