NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Puts all the sines in the first half of the columns and all the cosines in the second half instead of interleaving them (sin in column 2i, cos in 2i+1).'
NAMED_IF = 'interleav|even|odd|column 2i|alternat|half|block|pairs?|2i ?\\+ ?1'
CODE = '''def sinusoidal_positional_encoding(L, D):
    n = (D + 1) // 2
    p = np.arange(L)[:, None]
    theta = 1.0 / 10000 ** (2 * np.arange(n) / D)
    ang = p * theta[None, :]
    return np.concatenate([np.sin(ang), np.cos(ang)], axis=1)[:, :D]
'''
