NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = 'Returns a Python list of the H matrices instead of one (H, D, D) array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    D = W_v.shape[0]
    Dh = D // num_heads
    return [W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh, :] for h in range(num_heads)]
'''
