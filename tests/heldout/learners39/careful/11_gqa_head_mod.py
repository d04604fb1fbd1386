NOTEBOOK = "11_modern_attention"
CELL = "grouped_query_attention"
MISTAKE = "Maps query head h to key/value head h % Hkv instead of h // (Hq // Hkv), so the groups are interleaved rather than consecutive."
NAMED_IF = r"h ?% ?Hkv|modulo|h ?// ?\(?Hq|consecutive|interleav|group|g\(h\)|repeat_kv"
CODE = '''
def grouped_query_attention(Q, K, V, mask=None):
    """Grouped-query attention: Hq query heads share Hkv key/value heads."""
    Q = np.asarray(Q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    Hq, Hkv = Q.shape[1], K.shape[1]
    if Hq % Hkv:
        raise ValueError(f"K has {Hkv} heads, which does not divide the {Hq} query heads")
    g = np.arange(Hq) % Hkv                 # key/value head of each query head
    return attnlab.scaled_dot_product_attention(Q, K[:, g], V[:, g], mask)
'''
