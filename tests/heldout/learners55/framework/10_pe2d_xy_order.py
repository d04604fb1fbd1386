NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Puts the column (x) encoding first and the row (y) encoding second, the (x, y) order of image libraries.'
NAMED_IF = '\\brows?\\b|columns?|order|swap|first half|second half|\\(x, ?y\\)'
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    rows = np.repeat(attnlab.sinusoidal_positional_encoding(H, D // 2), W, axis=0)
    cols = np.tile(attnlab.sinusoidal_positional_encoding(W, D // 2), (H, 1))
    return np.concatenate([cols, rows], axis=1)
'''
