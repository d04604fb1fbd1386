NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Lays the grid out column-major (row p = j*H + i) instead of row-major (p = i*W + j): the row encodings are tiled and the column encodings repeated.'
NAMED_IF = 'row[- ]major|column[- ]major|order|grid|transpos|i ?\\* ?w ?\\+ ?j|repeat.{0,30}tile|tile.{0,30}repeat|layout'
CODE = '''\
def positional_encoding_2d(H, W, D):
    """Sinusoidal encodings of the H*W pixel positions of an H x W map."""
    if D % 4 != 0:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    pe_rows = attnlab.sinusoidal_positional_encoding(H, D // 2)   # (H, D/2)
    pe_cols = attnlab.sinusoidal_positional_encoding(W, D // 2)   # (W, D/2)
    rows = np.tile(pe_rows, (W, 1))                                # (H*W, D/2)
    cols = np.repeat(pe_cols, H, axis=0)                           # (H*W, D/2)
    return np.concatenate([rows, cols], axis=1)                    # (H*W, D)
'''
