NOTEBOOK = '11_modern_attention'
CELL = 'halves_to_interleaved_weights'
MISTAKE = 'Builds the column order over the whole width num_heads*Dh as if it were one head, so pairs are formed across heads.'
NAMED_IF = 'head|per[- ]head|across heads|within (each|a|one) head|block|whole width'
CODE = '''def halves_to_interleaved_weights(W, num_heads):
    W = np.asarray(W)
    D, HD = W.shape
    half = HD // 2
    order = np.stack([np.arange(half), np.arange(half) + half], axis=-1).reshape(-1)
    return W[:, order].copy()
'''
