NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Loops over the slots 0..t % W only, so once the ring has wrapped the query ignores the window's tokens stored in the later slots."
NAMED_IF = r"t ?% ?w ?\+ ?1|range\(t ?% ?w|slots? (after|beyond|past) (the )?(current|new|t ?% ?w)|(later|higher) slots|(ignor|skip|miss)\w*[^.]*(later|higher|other) slots|too few slots|only (the )?slots? (0|up to)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    B, Hq, _, Dh = q.shape
    Hkv, W = cache_k.shape[1], cache_k.shape[2]
    rep = Hq // Hkv
    slot = t % W
    qr = attnlab.rope(q, np.array([t]))
    kr = attnlab.rope(k, np.array([t]))
    out = np.zeros((B, Hq, 1, cache_v.shape[-1]))
    for b in range(B):
        for g in range(Hkv):
            cache_k[b, g, slot] = kr[b, g, 0]
            cache_v[b, g, slot] = v[b, g, 0]
        for h in range(Hq):
            g = h // rep
            scores = np.array([qr[b, h, 0] @ cache_k[b, g, j] for j in range(slot + 1)]) / np.sqrt(Dh)
            p = np.exp(scores - scores.max())
            p /= p.sum()
            for j in range(slot + 1):
                out[b, h, 0] += p[j] * cache_v[b, g, j]
    return out, cache_k, cache_v
'''
