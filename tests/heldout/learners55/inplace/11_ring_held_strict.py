NOTEBOOK = '11_modern_attention'
CELL = 'ring_cache_decode_step'
MISTAKE = "Marks the held slots with arange(W) < t, so before the ring wraps the new token's own slot is masked out."
NAMED_IF = r"itself|own (key|slot|token)|new token|off.by.one|<= ?t|held|current (token|slot)|nan|written"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    q_rot = attnlab.rope(q, np.array([t]))
    cache_k[:, :, t % W] = attnlab.rope(k, np.array([t]))[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) < t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
