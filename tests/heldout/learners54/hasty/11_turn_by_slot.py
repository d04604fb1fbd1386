NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Rotates the query and the new key by the slot t % W instead of the position t, so offsets are wrong once the ring has wrapped."
NAMED_IF = r"\b(turn(s|ed|ing)?|rotat\w*|angles?|rope)\b[^.]*\bslot|\bslot[^.]*\b(turn(s|ed|ing)?|rotat\w*|angles?)\b|by (the |its )?slot|by t ?% ?w"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    s = t % W
    q = attnlab.rope(q, np.array([s]))
    k = attnlab.rope(k, np.array([s]))
    cache_k[:, :, s] = k[:, :, 0]
    cache_v[:, :, s] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
