NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Uses the absolute distance |x_q - x_k| instead of its square (a Laplace kernel).'
NAMED_IF = 'squar|abs|distance|\\^ ?2|²|laplace'
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = np.abs(x_query[:, None] - x_keys[None, :])
    return attnlab.softmax(-d / (2 * bandwidth ** 2), axis=-1)
'''
