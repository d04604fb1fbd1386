NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Maps query head h to key/value head h % Hkv (the tile order) instead of h // (Hq // Hkv), so grouped heads read the wrong key/value head."
NAMED_IF = r"(wrong|which|other|neighbou?r|consecutive)[^.]*(group|key/value head|kv head)|group[^.]*(order|wrong|mapping|tile|neighbou?r)|h ?% ?hkv|tile|h ?// ?"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    slot = t % W
    qr = attnlab.rope(q, np.array([t]))
    kr = attnlab.rope(k, np.array([t]))
    for b in range(B):
        for h in range(Hkv):
            cache_k[b, h, slot] = kr[b, h, 0]
            cache_v[b, h, slot] = v[b, h, 0]
    n = min(t + 1, W)
    out = np.zeros((B, Hq, 1, cache_v.shape[-1]))
    for b in range(B):
        for h in range(Hq):
            g = h % Hkv
            scores = np.full(W, -np.inf)
            for j in range(n):
                scores[j] = qr[b, h, 0] @ cache_k[b, g, j] / np.sqrt(Dh)
            p = np.exp(scores - scores.max())
            p = p / p.sum()
            for j in range(n):
                out[b, h, 0] += p[j] * cache_v[b, g, j]
    return out, cache_k, cache_v
'''
