NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Writes the new token into copies of the rings but returns the rings it was given, so the next step's cache is missing the token."
NAMED_IF = r"cop(y|ies) of the (rings?|caches?)|(writes?|written) (in)?to a copy|returns? (the )?(old|original|unchanged|input|given) (rings?|caches?)|rings? it was given|(cache|ring)s? (is |are |were )?(not|never) (updated|written)|(next step|later steps?)[^.]*(missing|lack|without)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    ring_k, ring_v = cache_k.copy(), cache_v.copy()
    q = attnlab.rope(q, np.array([t]))
    k = attnlab.rope(k, np.array([t]))
    ring_k[:, :, t % W] = k[:, :, 0]
    ring_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q, ring_k, ring_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
