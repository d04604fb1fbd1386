NOTEBOOK = '11_modern_attention'
CELL = 'ring_cache_decode_step'
MISTAKE = 'Rotates the query and key by the slot t % W instead of the position t.'
NAMED_IF = r"\bslot|position|t ?% ?W|rotat|rope"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    s = t % W
    q_rot = attnlab.rope(q, np.array([s]))
    cache_k[:, :, s] = attnlab.rope(k, np.array([s]))[:, :, 0]
    cache_v[:, :, s] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
