NOTEBOOK = '11_modern_attention'
CELL = 'ring_cache_decode_step'
MISTAKE = 'Writes slot t % W correctly but rotates the new query and key by the slot t % W instead of the position t.'
NAMED_IF = 'rotat|position t|\\bslot\\b|rope|angle|turn'
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t % W])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
