NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Attends to all W slots with no mask, so while the ring is filling the query reads the previous request's leftover keys and values."
NAMED_IF = r"leftover|stale|unwritten|not (yet )?(been )?written|(previous|earlier|last|other) request|every slot|all (the )?(w )?slots|(mask|hide)[^.]*slots?"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    q = attnlab.rope(q, np.array([t]))
    k = attnlab.rope(k, np.array([t]))
    cache_k[:, :, t % W] = k[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v)
    return out, cache_k, cache_v
'''
