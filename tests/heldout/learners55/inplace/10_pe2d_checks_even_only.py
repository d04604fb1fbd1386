NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Checks only that D is even (D % 2), so a D that is even but not a multiple of 4 is accepted.'
NAMED_IF = r"ValueError|multiple of 4|\braise|reject|D ?% ?4"
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 2 != 0:
        raise ValueError(f"D: expected an even width, got {D}")
    out = np.empty((H * W, D))
    out[:, :D // 2] = np.repeat(attnlab.sinusoidal_positional_encoding(H, D // 2), W, axis=0)
    out[:, D // 2:] = np.tile(attnlab.sinusoidal_positional_encoding(W, D // 2), (H, 1))
    return out
'''
