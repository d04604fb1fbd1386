NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Returns the update alone, without adding the input tokens back (no residual).'
NAMED_IF = r"residual|add\w* (back )?(the )?input|\+ ?Z|skip"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Zc = Z[..., :-1, :]
    N = Zc.shape[-2]
    upd = (Z @ W_kq) @ np.swapaxes(Zc, -1, -2)
    upd = upd @ (Zc @ W_pv)
    upd /= N
    return upd
'''
