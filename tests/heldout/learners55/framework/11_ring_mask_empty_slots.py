NOTEBOOK = '11_modern_attention'
CELL = 'ring_cache_decode_step'
MISTAKE = 'Builds the slot mask the key_padding_mask way, True on the slots not yet written, and passes it where True means may attend.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|unwritten|not yet written|empty slots|leftovers'
CODE = '''def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    pos = np.array([t])
    q_rot = attnlab.rope(q, pos)
    k_rot = attnlab.rope(k, pos)
    cache_k[:, :, t % W] = k_rot[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    empty = np.arange(W) > t
    out, _ = attnlab.grouped_query_attention(q_rot, cache_k, cache_v, empty[None, None, None, :])
    return out, cache_k, cache_v
'''
