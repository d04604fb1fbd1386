NOTEBOOK = "10_attention_on_images"
CELL = "positional_encoding_2d"
MISTAKE = "Swaps np.repeat and np.tile, so the row index varies fastest and the rows come out column-major (p = j*H + i) instead of row-major."
NAMED_IF = r"row-major|column-major|row major|i ?\* ?W ?\+ ?j|order|repeat|tile"
CODE = '''
def positional_encoding_2d(H, W, D):
    """Sinusoidal encodings of the H*W pixel positions of an H x W map."""
    if D % 4 != 0:
        raise ValueError(f"D must be a multiple of 4, got {D}")
    half = D // 2
    k = np.arange(0, half, 2)
    def pe(n):
        ang = np.arange(n)[:, None] / 10000.0 ** (k / half)
        out = np.empty((n, half))
        out[:, 0::2] = np.sin(ang)
        out[:, 1::2] = np.cos(ang)
        return out
    rows = np.tile(pe(H), (W, 1))           # (H*W, D/2)
    cols = np.repeat(pe(W), H, axis=0)      # (H*W, D/2)
    return np.concatenate([rows, cols], axis=1)
'''
