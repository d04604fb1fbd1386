NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'divides by 2*sigma instead of 2*sigma^2 (bandwidth not squared)'
NAMED_IF = 'bandwidth|σ ?²|σ\\^?2|sigma\\s*(\\*\\*|\\^)?\\s*2|squar|scal|width'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    """Nadaraya-Watson weights softmax_k(-(x_q - x_k)² / (2 σ²))."""
    xq = np.asarray(x_query, dtype=float).reshape(-1, 1)     # column
    xk = np.asarray(x_keys, dtype=float).reshape(1, -1)      # row
    S = -(xq - xk) ** 2 / (2 * bandwidth)
    return attnlab.softmax(S, axis=-1)
'''
