NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Also rotates the value by RoPE before writing it into the value ring, though only queries and keys are rotated."
NAMED_IF = r"values?[^.]*(rotat|turn|rope)|(rotat|turn|rope)[^.]*values?|cache_v[^.]*(rotat|turn)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q, k, v = attnlab.rope(q, pos), attnlab.rope(k, pos), attnlab.rope(v, pos)
    cache_k[:, :, t % W] = k[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
