NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = 'checks only that D is even (D % 2), so D = 6 or 10 is accepted instead of raising ValueError'
NAMED_IF = 'multiple of 4|\\b4\\b|raise|ValueError|did not raise|no error|even'
CODE = '''def positional_encoding_2d(H, W, D):
    """Sinusoidal encodings of the H*W pixel positions of an H x W map."""
    if D & 1:
        raise ValueError(f"D must be a multiple of 4, got {D}")
    half = D // 2
    pr = attnlab.sinusoidal_positional_encoding(H, half)
    pc = attnlab.sinusoidal_positional_encoding(W, half)
    out = np.zeros((H * W, D))
    for i in range(H):
        for j in range(W):
            out[i * W + j, :half] = pr[i]
            out[i * W + j, half:] = pc[j]
    return out
'''
