NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Expands the key/value heads with np.tile instead of repeating each one for its group of neighbouring query heads, so with 1 < Hkv < Hq the heads read the wrong key/value head."
NAMED_IF = r"tile|(wrong|which|other|neighbou?r|consecutive)[^.]*(group|key/value head|kv head)|group[^.]*(order|wrong|mapping|neighbou?r)|h ?% ?hkv|np\.repeat"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    Hq, Hkv, W = q.shape[1], cache_k.shape[1], cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    K = np.tile(cache_k, (1, Hq // Hkv, 1, 1))
    V = np.tile(cache_v, (1, Hq // Hkv, 1, 1))
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q_rot, K, V, held[None, None, None, :])
    return out, cache_k, cache_v
'''
