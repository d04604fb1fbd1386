NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Writes the new token first but masks with np.arange(W) < t, so while the ring is filling (t < W) the query cannot see its own key."
NAMED_IF = r"itself|own (key|token|slot|value)|(mask|exclud|hid)\w*[^.]*(new|current|newest) (token|key|slot)|(new|current|newest) (token|key|slot)[^.]*(masked|excluded|hidden)|< ?t\b"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) < t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
