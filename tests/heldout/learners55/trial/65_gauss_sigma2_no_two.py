NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Divides the squared distance by sigma^2 instead of 2 sigma^2.'
NAMED_IF = '2 ?σ|2 ?\\*? ?sigma|factor (of )?(2|two)|\\btwo\\b|2σ²|bandwidth|width|too narrow|sharp'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return attnlab.softmax(-d ** 2 / bandwidth ** 2, axis=-1)
'''
