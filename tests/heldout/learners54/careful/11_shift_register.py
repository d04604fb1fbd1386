NOTEBOOK = "11_modern_attention"
CELL = "ring_cache_decode_step"
MISTAKE = "Keeps the cache as a shift register (drops slot 0, appends the new token at the end) instead of writing the token at position p into slot p % W, so the returned rings are laid out wrongly."
NAMED_IF = r"wrong slot|not in (its |the right )?slot|(written|stored|writ(e|es)) (in|into|to) (the )?wrong slot|shift(ed|s|ing)? (the )?(cache|ring|slots|keys)|shift register|\broll|(cache|ring)[^.]*(layout|order)|slots? (moved|order)|moves? (the )?(slots|keys|tokens)"
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k = np.concatenate([cache_k[:, :, 1:], k_rot], axis=2)
    cache_v = np.concatenate([cache_v[:, :, 1:], v], axis=2)
    held = np.arange(W) >= W - 1 - t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''
