NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = "Passes the head index where the batch index goes (score_mod(score, h, b, q, k)), so a per-head score mod such as ALiBi uses the batch element's slope."
NAMED_IF = r"`?b`? and `?h`? swapped|batch and head|head index|head (and|with) (the )?batch|batch index (where|for|instead)|swap\w* (the )?(batch|head)"
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
        scores = score_mod(scores, h, b, q, k)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
    else:
        allowed = np.ones(scores.shape, dtype=bool)
    scores = np.where(allowed, scores, -np.inf)
    weights = np.zeros_like(scores)
    for bi in range(B):
        for hi in range(H):
            for qi in range(Lq):
                row = scores[bi, hi, qi]
                if np.isfinite(row).any():
                    e = np.exp(row - row[np.isfinite(row)].max())
                    weights[bi, hi, qi] = e / e.sum()
    return weights @ V, weights
'''
