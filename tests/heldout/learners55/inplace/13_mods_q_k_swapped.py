NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Builds the index arrays with q on the key axis and k on the query axis (q of shape (1,1,1,Lq), k of (1,1,Lk,1)), so every mod sees the pair transposed.'
NAMED_IF = r"\bindex|q and k|swap|transpos|shape|\(1, ?1, ?Lq, ?1\)|causal|query (axis|index)"
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    k = np.arange(Lk).reshape(1, 1, Lk, 1)
    q = np.arange(Lq).reshape(1, 1, 1, Lq)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    if score_mod is not None:
        S = np.array(np.broadcast_to(score_mod(S, b, h, q, k), S.shape), dtype=float)
    if mask_mod is not None:
        S = np.where(np.broadcast_to(mask_mod(b, h, q, k), S.shape), S, -np.inf)
    top = S.max(axis=-1, keepdims=True)
    S -= np.where(np.isfinite(top), top, 0.0)
    np.exp(S, out=S)
    tot = S.sum(axis=-1, keepdims=True)
    S /= np.where(tot > 0, tot, 1.0)
    return S @ V, S
'''
