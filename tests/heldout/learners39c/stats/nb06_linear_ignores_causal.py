NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'linear_attention'
MISTAKE = 'ignores the causal argument: always uses all keys'
NAMED_IF = 'causal|ignor|prefix|future|later keys|j ?<= ?i'
CODE = '''def linear_attention(Q, K, V, feature_map, causal=False):
    """Attention with the kernel φ(q)·φ(k), linear in the length."""
    Q = np.asarray(Q, dtype=float); K = np.asarray(K, dtype=float); V = np.asarray(V, dtype=float)
    pq = feature_map(Q); pk = feature_map(K)
    if np.any(pq <= 0) or np.any(pk <= 0):
        raise ValueError("feature map must be positive")
    S = np.swapaxes(pk, -1, -2) @ V
    z = pk.sum(axis=-2, keepdims=True)                 # (..., 1, M)
    return (pq @ S) / (pq @ np.swapaxes(z, -1, -2))
'''
