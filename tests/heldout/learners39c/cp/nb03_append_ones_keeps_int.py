NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'keeps the input dtype (np.ones_like on an integer X gives ints), so it does not return floats'
NAMED_IF = 'float|dtype|int(eger)?'
CODE = '''def append_ones(X):
    """Append a feature that is always 1 to every token."""
    X = np.asarray(X)
    return np.concatenate([X, np.ones_like(X[..., :1])], axis=-1)
'''

FAIR = "keeping an integer input's dtype is graded correct by the course (round 1 marks the same case FAIR; tests/realworld has a correct append_ones with ones_like)"
