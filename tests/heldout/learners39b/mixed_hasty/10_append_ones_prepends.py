NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Puts the column of ones first instead of last.'
NAMED_IF = 'first (column|position|feature)|prepend|front|beginning|start|last column|wrong (end|side|position)|shift|column order'
CODE = '''\
def append_ones(X):
    """Append a feature that is always 1 to every token."""
    ones = np.ones(X.shape[:-1] + (1,))
    return np.concatenate([ones, X], axis=-1)      # (..., L, D+1)
'''
