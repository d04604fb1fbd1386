NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Divides the squared distance by σ² instead of 2σ² (drops the factor 2).'
NAMED_IF = r'2 ?σ|2 ?\* ?(sigma|bandwidth)|factor (of )?(2|two)|twice|half|2σ²'
FAILS = ('test_gaussian_weights', 'test_gaussian_weights_stable')
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    """Nadaraya-Watson weights softmax_k(-(x_q - x_k)² / (2 σ²))."""
    diff = x_query[:, None] - x_keys[None, :]
    scores = -diff**2 / bandwidth**2
    return attnlab.softmax(scores, axis=-1)
'''
