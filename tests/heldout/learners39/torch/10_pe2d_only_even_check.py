NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'Only checks that D is even, so a D that is even but not a multiple of 4 (e.g. 6) is accepted instead of raising ValueError.'
NAMED_IF = r"multiple of 4|ValueError|raise|D ?% ?4|divisible by 4"
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 2:
        raise ValueError(f"D must be even, got {D}")
    half = D // 2
    rows = np.repeat(attnlab.sinusoidal_positional_encoding(H, half), W, axis=0)
    cols = np.tile(attnlab.sinusoidal_positional_encoding(W, half), (H, 1))
    return np.concatenate([rows, cols], axis=1)
'''
