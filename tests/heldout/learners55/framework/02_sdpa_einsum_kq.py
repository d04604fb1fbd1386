NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = "Writes the scores with an einsum string from a key-major layout ('...kq'), normalises over the last axis of that layout (the queries), and only transposes the weights back at the end."
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|over (the )?queries|columns|transpos'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    s = np.einsum("...qd,...kd->...kq", Q, K) / np.sqrt(Q.shape[-1])   # (..., Lk, Lq)
    if mask is not None:
        s = np.where(np.swapaxes(mask, -1, -2), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total > 0, total, 1.0)                           # (..., Lk, Lq)
    out = np.einsum("...kq,...kv->...qv", w, V)
    return out, np.swapaxes(w, -1, -2)
'''
