NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = "Builds the grid with np.meshgrid's default indexing='xy', so the pixels are listed column-major instead of row-major."
NAMED_IF = 'meshgrid|indexing|\\bxy\\b|\\bij\\b|column[- ]major|row[- ]major|order|transpos|row by row'
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    ii, jj = np.meshgrid(np.arange(H), np.arange(W))     # default indexing="xy": shape (W, H)
    ii, jj = ii.ravel(), jj.ravel()
    pr = attnlab.sinusoidal_positional_encoding(H, D // 2)[ii]
    pc = attnlab.sinusoidal_positional_encoding(W, D // 2)[jj]
    return np.concatenate([pr, pc], axis=1)
'''
