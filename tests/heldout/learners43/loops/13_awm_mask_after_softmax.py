NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Takes the softmax over all keys, then zeroes the forbidden weights without renormalising (mask applied after the softmax).'
NAMED_IF = r"after the softmax|renormali|sum to one|sums? to (less|one|1)|zero\w* after|masked after|mask (applied )?after|do not sum"
CODE = '''
def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    """Dense attention with a score mod and a mask mod."""
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[2]
    scores = np.zeros((B, H, Lq, Lk))
    for bi in range(B):
        for hi in range(H):
            scores[bi, hi] = Q[bi, hi] @ K[bi, hi].T / np.sqrt(Dh)
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)
    weights = attnlab.softmax(scores, axis=-1)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), weights.shape)
        weights = np.where(allowed, weights, 0.0)
    out = np.zeros((B, H, Lq, V.shape[-1]))
    for bi in range(B):
        for hi in range(H):
            out[bi, hi] = weights[bi, hi] @ V[bi, hi]
    return out, weights
'''
