NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = 'takes the row block of W_v and the column block of W_o (the slices swapped)'
NAMED_IF = 'columns?|rows?|slice|block|transpos|swap'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    D = W_v.shape[0]
    Dh = D // num_heads
    res = np.zeros((num_heads, D, D))
    for h in range(num_heads):
        a, b = h * Dh, (h + 1) * Dh
        res[h] = W_v[a:b, :].T @ W_o[:, a:b].T
    return res
'''
