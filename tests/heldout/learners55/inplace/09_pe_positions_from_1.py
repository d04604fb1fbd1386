NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Numbers the positions from 1 (np.arange(1, L + 1)) instead of 0.'
NAMED_IF = r"position 0|start(s|ing)? (at|from) (0|1|one|zero)|off.by.one|shift|p ?= ?0|first (row|position)|one position"
CODE = '''def sinusoidal_positional_encoding(L, D):
    PE = np.zeros((L, D))
    pos = np.arange(1, L + 1)[:, None]
    angles = pos * 10000.0 ** (-np.arange(0, D, 2) / D)[None, :]
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles[:, :D // 2])
    return PE
'''
