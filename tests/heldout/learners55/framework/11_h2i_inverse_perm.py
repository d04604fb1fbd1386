NOTEBOOK = '11_modern_attention'
CELL = 'halves_to_interleaved_weights'
MISTAKE = "Applies the permutation of HF's llama conversion script (interleaved to halves: even columns then odd columns) instead of its inverse."
NAMED_IF = 'invers|opposite|wrong direction|backwards|interleaved to halves|permut|even[^.]{0,20}odd'
CODE = '''def halves_to_interleaved_weights(W, num_heads):
    W = np.asarray(W)
    D, HD = W.shape
    Dh = HD // num_heads
    order = np.concatenate([np.arange(0, Dh, 2), np.arange(1, Dh, 2)])
    return W.reshape(D, num_heads, Dh)[..., order].reshape(D, HD)
'''
