NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Raises only for odd D; a D that is even but not a multiple of 4 (e.g. 6) is accepted.'
NAMED_IF = 'multiple of 4|ValueError|raise|divisible|D ?% ?4|reject'
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 2 != 0:
        raise ValueError(f"D must be even, got {D}")
    rows = np.repeat(attnlab.sinusoidal_positional_encoding(H, D // 2), W, axis=0)
    cols = np.tile(attnlab.sinusoidal_positional_encoding(W, D // 2), (H, 1))
    return np.concatenate([rows, cols], axis=1)
'''
