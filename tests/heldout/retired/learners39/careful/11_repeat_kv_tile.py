NOTEBOOK = "11_modern_attention"
CELL = "repeat_kv"
MISTAKE = "Uses np.tile along the head axis, giving heads 0, 1, ..., 0, 1, ... instead of each head repeated n_rep times in a row."
NAMED_IF = r"tile|in a row|0, ?0, ?1, ?1|0, ?1, ?0, ?1|consecutive|interleav|h ?// ?n_rep"
CODE = '''
def repeat_kv(X, n_rep):
    """Repeat each key/value head n_rep times in a row."""
    X = np.asarray(X)
    return np.tile(X, (1, n_rep, 1, 1))
'''
