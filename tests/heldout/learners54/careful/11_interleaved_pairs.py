NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Rotates with the interleaved pairing (2k, 2k+1) while the whole-sequence reference and the cached keys use the default halves pairing."
NAMED_IF = r"interleav|pairing|halves|\(2k, ?2k ?\+ ?1\)|wrong pairs"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos, interleaved=True)
    k_rot = attnlab.rope(k, pos, interleaved=True)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
