NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Divides the squared distance by σ² instead of 2σ² (the factor 2 is missing), so the kernel is too narrow by √2.'
NAMED_IF = 'factor (of )?2|2 ?(\\*|·)? ?(σ|sigma|bandwidth)|2σ|twice|half|√ ?2|sqrt\\(?2|constant factor'
CODE = '''\
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    """Nadaraya-Watson weights softmax_k(-(x_q - x_k)² / (2 σ²))."""
    diff = x_query[:, None] - x_keys[None, :]                 # (Lq, Lk)
    scores = -diff ** 2 / bandwidth ** 2
    scores = scores - scores.max(axis=1, keepdims=True)
    w = np.exp(scores)
    return w / w.sum(axis=1, keepdims=True)
'''
