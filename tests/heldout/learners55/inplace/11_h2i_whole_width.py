NOTEBOOK = '11_modern_attention'
CELL = 'halves_to_interleaved_weights'
MISTAKE = "Builds the interleaving order over the whole width num_heads*Dh instead of inside each head, mixing the heads' columns."
NAMED_IF = r"per head|each head|heads? (mix|cross|moved|stay)|whole (width|matrix)|num_heads|inside (every|each) head|in place"
CODE = '''def halves_to_interleaved_weights(W, num_heads):
    D, HD = W.shape
    half = HD // 2
    order = np.stack([np.arange(half), np.arange(half, HD)], axis=-1).reshape(-1)
    return W[:, order]
'''
