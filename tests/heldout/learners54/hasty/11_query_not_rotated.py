NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Rotates only the new key at position t and leaves the query unrotated, so the scores lose the relative offsets."
NAMED_IF = r"(query|\bq\b)[^.]*(not|never|without|missing|un)[^.]*(rotat|turn|rope)|(unrotated|unturned|not rotated|not turned)[^.]*(query|\bq\b)|only (the )?keys?[^.]*(rotat|turn)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    k_rot = attnlab.rope(k, np.array([t]))
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
