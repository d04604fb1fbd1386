NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Uses tile for the rows and repeat for the columns, so the pixels are laid out column-major.'
NAMED_IF = 'repeat|tile|row-?major|column-?major|i ?\\* ?W|layout|order'
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4 != 0:
        raise ValueError(f"D must be a multiple of 4, got {D}")
    rows = np.tile(attnlab.sinusoidal_positional_encoding(H, D // 2), (W, 1))
    cols = np.repeat(attnlab.sinusoidal_positional_encoding(W, D // 2), H, axis=0)
    return np.concatenate([rows, cols], axis=1)
'''
