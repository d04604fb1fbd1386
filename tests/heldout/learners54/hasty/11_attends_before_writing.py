NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Attends over the ring before writing the new token into it, so the query never sees its own key and, after the wrap, reads the token that just left the window."
NAMED_IF = r"itself|own (key|token|value)|attend\w*[^.]*before[^.]*writ|writ\w*[^.]*after[^.]*attend|(new|current) (token|key) (is )?(missing|left out|excluded|not in the ring)|left the window|dropped token"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    q = attnlab.rope(q, np.array([t]))
    k = attnlab.rope(k, np.array([t]))
    held = np.arange(W) < t
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])
    cache_k[:, :, t % W] = k[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    return out, cache_k, cache_v
'''
