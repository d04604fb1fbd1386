NOTEBOOK = "12_what_attention_learns"
CELL = "linear_self_attention"
MISTAKE = "Divides the update by N + 1 (the number of rows of Z) instead of N, the number of examples."
NAMED_IF = r"N ?\+ ?1|1 ?/ ?N|average|number of examples|normali|divid"
CODE = '''
def linear_self_attention(Z, W_kq, W_pv):
    """One linear self-attention layer for in-context regression."""
    Z = np.asarray(Z, dtype=float)
    n_rows = Z.shape[-2]
    Zc = Z[..., :-1, :]                                        # the example rows
    scores = Z @ W_kq @ np.swapaxes(Zc, -1, -2)                # (..., N+1, N)
    return Z + scores @ (Zc @ W_pv) / n_rows
'''
