NOTEBOOK = "02_query_key_value"
CELL = "attend"
MISTAKE = "Scales the scores by 1/Dk instead of 1/sqrt(Dk)."
NAMED_IF = r"sqrt|√|square root|scal"
CODE = '''
def attend(q, K, V):
    """Soft dictionary lookup: one query against a key-value store."""
    q = np.asarray(q, dtype=float)
    K = np.asarray(K, dtype=float)
    V = np.asarray(V, dtype=float)
    s = K @ q / q.shape[-1]
    w = attnlab.softmax(s)
    return w @ V, w
'''
