NOTEBOOK = '03_self_attention'
CELL = 'append_ones'
MISTAKE = 'Returns a Python list of lists (each row as a list with 1.0 appended) instead of a float array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def append_ones(X):
    """Append a feature that is always 1 to every token."""
    return [list(row) + [1.0] for row in X]
'''
