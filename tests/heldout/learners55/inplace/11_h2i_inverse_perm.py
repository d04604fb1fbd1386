NOTEBOOK = '11_modern_attention'
CELL = 'halves_to_interleaved_weights'
MISTAKE = 'Applies the inverse permutation (interleaved to halves: even columns first, then odd) inside each head.'
NAMED_IF = r"inverse|opposite direction|wrong direction|interleaved (to|->) halves|permutation|\border|which (old )?column"
CODE = '''def halves_to_interleaved_weights(W, num_heads):
    D, HD = W.shape
    Dh = HD // num_heads
    order = np.concatenate([np.arange(0, Dh, 2), np.arange(1, Dh, 2)])
    return W.reshape(D, num_heads, Dh)[..., order].reshape(D, HD)
'''
