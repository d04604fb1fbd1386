NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "Takes head h's rows of W_v (transposed) instead of its columns: W_v[h*Dh:(h+1)*Dh, :].T @ W_o[h*Dh:(h+1)*Dh]."
NAMED_IF = 'rows?.{0,40}columns?|columns?.{0,40}rows?|transpos|w_v|slice'
CODE = '''\
def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    D = W_v.shape[0]
    Dh = D // num_heads
    out = np.zeros((num_heads, D, D))
    for h in range(num_heads):
        out[h] = W_v[h * Dh:(h + 1) * Dh, :].T @ W_o[h * Dh:(h + 1) * Dh, :]
    return out
'''
