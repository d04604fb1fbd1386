NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'input validation too strict: raises ValueError when the value width Dv differs from Dk'
NAMED_IF = 'raise|reject|too strict|input check|own check|D_?v|valid input|ValueError'
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(Q Kᵀ / √Dk) V for one sequence or a batch, with an optional mask."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"query width {Q.shape[-1]} != key width {K.shape[-1]}")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError("keys and values differ in length")
    if V.shape[-1] != K.shape[-1]:
        raise ValueError(f"value width {V.shape[-1]} != key width {K.shape[-1]}")
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    m = S.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    E = np.exp(S - m)
    t = E.sum(axis=-1, keepdims=True)
    W = E / np.where(t > 0, t, 1.0)
    return W @ V, W
'''
