NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Divides the squared differences in place by 2*bandwidth instead of 2*bandwidth**2.'
NAMED_IF = r"σ²|σ\^?2|sigma\s*(\*\*|\^)\s*2|squared? (bandwidth|sigma|σ|width)|(bandwidth|sigma|σ|width)[^.]{0,20}(not )?squared|2 ?σ\b|2 ?sigma\b|2 ?\* ?bandwidth\b|2σ²"
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    d **= 2
    d /= -2 * bandwidth
    return attnlab.softmax(d, axis=-1)
'''
