NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = "Concatenates all the sines then all the cosines (the TF tutorial's layout) instead of interleaving them column by column."
NAMED_IF = 'concat|halves|interleav|(sines?|cos(ines?)?)[^.]{0,40}(first|second|last) half|block|layout|even (and|/) odd|odd columns|column 2i'
CODE = '''def sinusoidal_positional_encoding(L, D):
    pos = np.arange(L, dtype=float)[:, None]
    freq = 10000.0 ** (-np.arange(0, D, 2) / D)
    angles = pos * freq[None, :]
    pe = np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
    return pe[:, :D]
'''
