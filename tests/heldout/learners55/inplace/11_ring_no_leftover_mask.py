NOTEBOOK = '11_modern_attention'
CELL = 'ring_cache_decode_step'
MISTAKE = 'Attends over all W slots from the first step, reading the leftovers of a previous request in slots not yet written.'
NAMED_IF = r"leftover|not (yet )?written|stale|previous request|\bmask|unwritten|garbage|held|last request"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    q_rot = attnlab.rope(q, np.array([t]))
    cache_k[:, :, t % W] = attnlab.rope(k, np.array([t]))[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v)
    return out, cache_k, cache_v
'''
