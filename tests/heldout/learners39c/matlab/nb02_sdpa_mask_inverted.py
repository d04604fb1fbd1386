NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'reads the mask with the opposite convention (True = blocked), so allowed keys get weight 0'
NAMED_IF = 'invert|revers|opposite|True.{0,30}(block|masked|hidden)|~ ?mask|flip|negat|convention'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, -np.inf, S)          # logical mask marks the entries to drop
    m = np.max(S, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    E = np.exp(S - m)
    tot = E.sum(axis=-1, keepdims=True)
    W = E / np.where(tot > 0, tot, 1.0)
    return W @ V, W
'''
