NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Reconstructs each slot's position and keeps only those with t - p < W - 1, so once the ring is full the oldest token of the window (t - W + 1) is dropped."
NAMED_IF = r"oldest|earliest (token|key|position)|window[^.]*(one|1)[^.]*(short|few|small|less)|w ?- ?1 (tokens|keys|slots)|off.by.one|(one|1) (token|key|slot) (too )?(few|short)|t ?- ?w ?\+ ?1"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    slots = np.arange(W)
    slot_pos = t - (t - slots) % W
    held = (slot_pos >= 0) & (t - slot_pos < W - 1)
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
