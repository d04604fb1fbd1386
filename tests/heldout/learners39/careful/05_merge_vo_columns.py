NOTEBOOK = "05_multi_head_attention"
CELL = "merge_value_output"
MISTAKE = "Takes head h's slice of W_o from its columns (transposed) instead of its rows."
NAMED_IF = r"rows?.{0,40}W_o|W_o.{0,40}rows?|columns?.{0,40}W_o|W_o.{0,40}columns?|transpos"
CODE = '''
def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    W_v = np.asarray(W_v, dtype=float)
    W_o = np.asarray(W_o, dtype=float)
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[:, h * Dh:(h + 1) * Dh].T
                     for h in range(num_heads)])
'''
