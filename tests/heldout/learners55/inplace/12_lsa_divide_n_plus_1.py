NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Divides the update by N + 1 (the number of rows) instead of N.'
NAMED_IF = r"N ?\+ ?1|divid|1 ?/ ?N|number of (examples|rows|tokens)|\bN\b"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Zc = Z[..., :-1, :]
    upd = (Z @ W_kq) @ np.swapaxes(Zc, -1, -2) @ (Zc @ W_pv)
    upd /= Z.shape[-2]
    return Z + upd
'''
