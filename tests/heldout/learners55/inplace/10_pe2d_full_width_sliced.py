NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Computes each 1-D encoding with width D and keeps its first D/2 columns, so the frequencies are those of width D instead of D/2.'
NAMED_IF = r"width|D ?/ ?2|D ?// ?2|frequenc|half"
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4 != 0:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    out = np.empty((H * W, D))
    out[:, :D // 2] = np.repeat(attnlab.sinusoidal_positional_encoding(H, D)[:, :D // 2], W, axis=0)
    out[:, D // 2:] = np.tile(attnlab.sinusoidal_positional_encoding(W, D)[:, :D // 2], (H, 1))
    return out
'''
