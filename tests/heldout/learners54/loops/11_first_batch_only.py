NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Computes the attention for batch element 0 only and copies it to every sequence of the batch."
NAMED_IF = r"batch|first (sequence|example|element)|b ?= ?0|\[0\]|other sequences"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    rep = Hq // Hkv
    qr = attnlab.rope(q, np.array([t]))
    kr = attnlab.rope(k, np.array([t]))
    cache_k[:, :, t % W] = kr[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    out = np.zeros((B, Hq, 1, cache_v.shape[-1]))
    for h in range(Hq):
        g = h // rep
        scores = []
        for j in range(W):
            if j <= t:
                scores.append(qr[0, h, 0] @ cache_k[0, g, j] / np.sqrt(Dh))
            else:
                scores.append(-np.inf)
        scores = np.array(scores)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        row = np.zeros(cache_v.shape[-1])
        for j in range(W):
            row += p[j] * cache_v[0, g, j]
        out[:, h, 0] = row
    return out, cache_k, cache_v
'''
