NOTEBOOK = "03_self_attention"
CELL = "append_ones"
MISTAKE = "Keeps the input's dtype for the column of ones, so an integer X returns an integer array instead of floats."
NAMED_IF = r"float|dtype|integer|int\b|int64"
CODE = '''
def append_ones(X):
    """Append a feature that is always 1 to every token."""
    X = np.asarray(X)
    ones = np.ones(X.shape[:-1] + (1,), dtype=X.dtype)
    return np.concatenate([X, ones], axis=-1)
'''

FAIR = "COURSE.md, Types: an exercise whose prompt says floats returns floats for int input; append_ones's prompt says no dtype, and a real-world correct implementation (np.ones_like beside X) keeps X's dtype as this one does (tests/realworld)."
