NOTEBOOK = "13_attention_variants"
CELL = 'attention_with_mods'
MISTAKE = 'Plain stable softmax over -inf scores: a query with no allowed key gets NaN weights and output instead of zeros.'
NAMED_IF = r"nan|no allowed key|no key (is )?allowed|fully masked|every key (is )?(masked|forbidden)|all keys (masked|forbidden)|0 ?/ ?0|empty row|nothing allowed|no key at all"
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
        scores = score_mod(scores, b, h, q, k)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
        scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights
'''
