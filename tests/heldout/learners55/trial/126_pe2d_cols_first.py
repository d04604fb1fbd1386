NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Puts the column encoding in the first half and the row encoding in the second.'
NAMED_IF = 'row|column|first half|second half|order|half'
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4 != 0:
        raise ValueError(f"D must be a multiple of 4, got {D}")
    rows = np.repeat(attnlab.sinusoidal_positional_encoding(H, D // 2), W, axis=0)
    cols = np.tile(attnlab.sinusoidal_positional_encoding(W, D // 2), (H, 1))
    return np.concatenate([cols, rows], axis=1)
'''
