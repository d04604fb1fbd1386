NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Averages by dividing by N+1 (the number of rows of Z) instead of by the N examples.'
NAMED_IF = r"N ?\+ ?1|1 ?/ ?N|divid|number of (examples|rows)|average"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Zc = Z[..., :-1, :]
    scores = Z @ W_kq @ np.swapaxes(Zc, -1, -2)    # (..., N+1, N)
    return Z + scores @ (Zc @ W_pv) / Z.shape[-2]
'''
