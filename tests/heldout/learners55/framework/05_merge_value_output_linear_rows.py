NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "Takes head h's block of W_o as columns (as if W_o were nn.Linear's (out, in) weight) and transposes it, instead of its block of rows."
NAMED_IF = 'columns?|rows?|transpos|\\(out, ?in\\)|nn\\.Linear'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[:, h * Dh:(h + 1) * Dh].T for h in range(num_heads)])
'''
