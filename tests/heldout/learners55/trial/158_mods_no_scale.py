NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Forgets to divide the scores by sqrt(Dh) before the mods.'
NAMED_IF = 'scal|sqrt|√'
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    S = Q @ np.swapaxes(K, -1, -2)
    b = np.arange(B).reshape(B, 1, 1, 1); h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1); k = np.arange(Lk).reshape(1, 1, 1, Lk)
    if score_mod is not None:
        S = score_mod(S, b, h, q, k)
    allowed = np.ones(S.shape, dtype=bool) if mask_mod is None else np.broadcast_to(mask_mod(b, h, q, k), S.shape)
    w = attnlab.masked_softmax(S, allowed)
    return w @ V, w
'''
