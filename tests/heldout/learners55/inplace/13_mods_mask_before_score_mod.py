NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Writes -inf into the masked scores first and applies the score mod afterwards, so a mod such as soft-capping turns -inf back into a finite score and masked keys get weight.'
NAMED_IF = r"\border|before (the )?score mod|after (the )?score mod|mask\w* (first|before)|masked keys? (get|got|receive)|acts first|exactly 0|forbidden"
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    if mask_mod is not None:
        S[~np.broadcast_to(mask_mod(b, h, q, k), S.shape)] = -np.inf
    if score_mod is not None:
        S = np.array(score_mod(S, b, h, q, k), dtype=float)
    top = S.max(axis=-1, keepdims=True)
    S -= np.where(np.isfinite(top), top, 0.0)
    np.exp(S, out=S)
    tot = S.sum(axis=-1, keepdims=True)
    S /= np.where(tot > 0, tot, 1.0)
    return S @ V, S
'''
