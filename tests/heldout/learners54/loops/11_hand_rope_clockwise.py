NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Its hand-written rotation turns each pair clockwise (the sine terms have the wrong signs), the opposite sense to RoPE's."
NAMED_IF = r"clockwise|\bsense\b|direction|\bsigns?\b|\b(rotat\w*|turn(s|ed|ing)?)\b[^.]*(wrong way|opposite|backward|negative)|opposite (way|angle|sense)|-sin"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    half = Dh // 2

    def turn(x):
        y = x.copy()
        for i in range(half):
            a = t * 10000.0 ** (-2 * i / Dh)
            c, s = np.cos(a), np.sin(a)
            y[..., i] = x[..., i] * c + x[..., i + half] * s
            y[..., i + half] = -x[..., i] * s + x[..., i + half] * c
        return y

    qr, kr = turn(q), turn(k)
    slot = t % W
    for b in range(B):
        for h in range(Hkv):
            cache_k[b, h, slot] = kr[b, h, 0]
            cache_v[b, h, slot] = v[b, h, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(qr, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
