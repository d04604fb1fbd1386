NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = 'Reshapes W_v to (D, Dh, H) and W_o to (Dh, H, D), so head h gets every H-th column/row instead of a block.'
NAMED_IF = 'interleav|stride|every H|block|order|reshape|head h|columns? h ?\\* ?Dh|column'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    Wv = W_v.reshape(D, Dh, num_heads)
    Wo = W_o.reshape(Dh, num_heads, D)
    return np.einsum("dkh,khe->hde", Wv, Wo)
'''
