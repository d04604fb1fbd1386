NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Its hand-written rotation uses the frequencies base**(-i/Dh) instead of base**(-2i/Dh), so every pair after the first turns at the wrong rate."
NAMED_IF = r"frequenc|theta|θ|\bbase\b|exponent|(angle|rate)s?[^.]*(pair|per position)|2 ?\*? ?i ?/ ?dh|2k ?/ ?d"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    half = Dh // 2
    qr, kr = q.astype(float).copy(), k.astype(float).copy()
    for i in range(half):
        ang = t * 10000.0 ** (-i / Dh)
        c, s = np.cos(ang), np.sin(ang)
        for x, y in ((q, qr), (k, kr)):
            y[..., i] = x[..., i] * c - x[..., i + half] * s
            y[..., i + half] = x[..., i] * s + x[..., i + half] * c
    for b in range(B):
        for h in range(Hkv):
            cache_k[b, h, t % W] = kr[b, h, 0]
            cache_v[b, h, t % W] = v[b, h, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(qr, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
