NOTEBOOK = '13_attention_variants'
CELL = 'attention_with_mods'
MISTAKE = 'Normalises in place with no guard for a row whose every key is forbidden, so such a row is nan instead of zeros.'
NAMED_IF = r"\bnan|fully masked|no allowed key|zero (weights|output)|all.zero|\bempty|nothing to attend"
CODE = '''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    if score_mod is not None:
        S = np.array(score_mod(S, b, h, q, k), dtype=float)
    if mask_mod is not None:
        S[~np.broadcast_to(mask_mod(b, h, q, k), S.shape)] = -np.inf
    S -= S.max(axis=-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=-1, keepdims=True)
    return S @ V, S
'''
