NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Its hand-written softmax uses the raw dot products, without dividing the scores by sqrt(Dh)."
NAMED_IF = r"scal|sqrt|√|temperature|divid"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    rep = Hq // Hkv
    qr = attnlab.rope(q, np.array([t]))
    kr = attnlab.rope(k, np.array([t]))
    for b in range(B):
        for g in range(Hkv):
            cache_k[b, g, t % W] = kr[b, g, 0]
            cache_v[b, g, t % W] = v[b, g, 0]
    out = np.zeros((B, Hq, 1, cache_v.shape[-1]))
    for b in range(B):
        for h in range(Hq):
            g = h // rep
            scores = np.full(W, -np.inf)
            for j in range(W):
                if j <= t:
                    scores[j] = np.dot(qr[b, h, 0], cache_k[b, g, j])
            e = np.exp(scores - scores.max())
            out[b, h, 0] = (e / e.sum()) @ cache_v[b, g]
    return out, cache_k, cache_v
'''
