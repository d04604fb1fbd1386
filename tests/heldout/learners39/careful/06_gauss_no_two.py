NOTEBOOK = "06_attention_as_kernel_machine"
CELL = "gaussian_attention_weights"
MISTAKE = "Uses -(x_q - x_k)^2 / sigma^2, dropping the factor 2 in the denominator 2 sigma^2."
NAMED_IF = r"2 ?σ|2 ?\\?sigma|factor (of )?2|factor two|twice|σ²|sigma\^?2|bandwidth.{0,30}(√2|sqrt\(?2)"
CODE = '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    """Nadaraya-Watson weights softmax_k(-(x_q - x_k)² / (2 σ²))."""
    x_query = np.asarray(x_query, dtype=float)
    x_keys = np.asarray(x_keys, dtype=float)
    diff = x_query[:, None] - x_keys[None, :]
    scores = -diff ** 2 / bandwidth ** 2
    return attnlab.softmax(scores, axis=-1)
'''
