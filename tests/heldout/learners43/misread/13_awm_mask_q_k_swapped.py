NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Calls the mask mod as mask_mod(b, h, k, q) with the query and key index arrays swapped, so the mask is transposed (causal becomes anti-causal).'
NAMED_IF = r"swap|transpos|q and k (are )?(exchang|revers|interchang)|query and key (index|indices|positions)? ?(are )?(exchang|swapped|reversed)|mask_mod\(b, h, k, q\)|anti-?causal|keys? (after|later than) the query"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[-2]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    b = np.arange(B)[:, None, None, None]
    h = np.arange(H)[None, :, None, None]
    q = np.arange(Lq)[None, None, :, None]
    k = np.arange(Lk)[None, None, None, :]
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)
    if mask_mod is None:
        allowed = np.ones_like(scores, dtype=bool)
    else:
        # mask_mod takes the key first, then the query
        allowed = np.broadcast_to(mask_mod(b, h, k, q), scores.shape)
    scores = np.where(allowed, scores, -np.inf)
    m = scores.max(-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(scores - m)
    s = e.sum(-1, keepdims=True)
    weights = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    return weights @ V, weights
'''
