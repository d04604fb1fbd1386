NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "Takes head h's rows of W_v and columns of W_o (transposed to make the shapes fit) instead of its columns of W_v and rows of W_o."
NAMED_IF = r'rows? of W_v|columns? of W_o|row.{0,20}column|column.{0,20}row|swap'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    """Each head's value and output projections multiplied into one (D, D) matrix."""
    D = W_v.shape[0]
    Dh = D // num_heads
    mats = []
    for h in range(num_heads):
        mats.append(W_v[h * Dh:(h + 1) * Dh, :].T @ W_o[:, h * Dh:(h + 1) * Dh].T)
    return np.stack(mats)
'''
