NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Writes the scores with the keys projected and the query rows raw, Z (Z_c W_kq)^T, which uses W_kq transposed.'
NAMED_IF = 'transpos|W_kq\\.T|W_kq ?ᵀ|order|side|wrong side'
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Z = np.asarray(Z, dtype=float)
    Zc = Z[..., :-1, :]
    N = Z.shape[-2] - 1
    scores = Z @ np.swapaxes(Zc @ W_kq, -1, -2)
    return Z + scores @ (Zc @ W_pv) / N
'''
