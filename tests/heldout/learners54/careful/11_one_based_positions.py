NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Counts positions from 1, rotating the token at position t by t + 1, so the keys it stores are not rotated at their positions (and its output is wrong against a correctly filled ring)."
NAMED_IF = r"t ?\+ ?1|one-based|1-based|counts? (positions )?from (1|one)|(position|angle)s?[^.]*(off by one|one too (far|late|many)|shifted by one|by one)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t + 1])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
