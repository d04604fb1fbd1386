NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Uses np.tile for the row encoding and np.repeat for the column encoding, so the row half cycles with the column index and vice versa.'
NAMED_IF = r"\brow|column|repeat|tile|\border|swap"
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4 != 0:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    rows = np.tile(attnlab.sinusoidal_positional_encoding(H, D // 2), (W, 1))
    cols = np.repeat(attnlab.sinusoidal_positional_encoding(W, D // 2), H, axis=0)
    return np.concatenate([rows, cols], axis=1)
'''
