NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Counts positions from 1 (np.arange(1, L + 1)) instead of from 0, so every row is the encoding of the next position.'
NAMED_IF = 'from (1|one)|start.{0,20}(0|1|zero|one)|off[- ]by[- ]one|shift|position 0|positions? .{0,20}(1|one)\\b|next position'
CODE = '''\
def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    PE = np.zeros((L, D))
    pos = np.arange(1, L + 1)[:, None]          # (L, 1)
    for i in range(0, D, 2):
        angle = pos[:, 0] / 10000 ** (i / D)
        PE[:, i] = np.sin(angle)
        if i + 1 < D:
            PE[:, i + 1] = np.cos(angle)
    return PE
'''
