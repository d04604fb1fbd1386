NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Divides the update by N + 1 (the number of rows, query row included) instead of N, the number of examples.'
NAMED_IF = 'divid(ed|es|ing)? by (the number of rows|n ?\\+ ?1)|n ?\\+ ?1 instead|1 ?/ ?\\(? ?n ?\\+ ?1|number of rows|constant factor|factor (of )?\\(?n|normali'
CODE = '''\
def linear_self_attention(Z, W_kq, W_pv):
    """One linear self-attention layer for in-context regression."""
    Z_c = Z[..., :-1, :]                                      # (..., N, d+1)
    n_rows = Z.shape[-2]                                      # N + 1
    scores = Z @ W_kq @ np.swapaxes(Z_c, -1, -2)              # (..., N+1, N)
    return Z + scores @ (Z_c @ W_pv) / n_rows
'''
