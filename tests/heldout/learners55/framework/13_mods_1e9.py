NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Fills the forbidden scores with -1e9 and takes a plain softmax, so a query with no allowed key gets uniform weights instead of zeros.'
NAMED_IF = '1e9|1e\\+?09|-?10\\^?9|large negative|finite (fill|value|number|constant)|uniform|instead of -?inf'
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    if score_mod is not None:
        s = score_mod(s, b, h, q, k)
    if mask_mod is None:
        allowed = np.ones(s.shape, dtype=bool)
    else:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), s.shape)
    s = np.where(allowed, s, -1e9)
    w = attnlab.softmax(s, axis=-1)
    return w @ V, w
'''
