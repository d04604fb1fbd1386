NOTEBOOK = '05_multi_head_attention'
CELL = 'merge_value_output'
MISTAKE = "Takes head h's rows of W_v and columns of W_o (the transposed slicing), giving a (Dh, Dh)-ish product patched into shape with .T."
NAMED_IF = 'column|row|W_?v|W_?o|slic|swap|transpos'
CODE = '''def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    out = []
    for h in range(num_heads):
        out.append((W_o[:, h*Dh:(h+1)*Dh] @ W_v[h*Dh:(h+1)*Dh, :]).T)
    return np.stack(out)
'''
