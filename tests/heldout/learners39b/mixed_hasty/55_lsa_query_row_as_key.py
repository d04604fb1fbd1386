NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Uses all N + 1 rows as keys and values, the query row included, instead of the N example rows Z_c.'
NAMED_IF = 'query row|all (the )?rows|z_c|last row|example rows|keys? (and|or|/) ?values?|includ'
CODE = '''\
def linear_self_attention(Z, W_kq, W_pv):
    """One linear self-attention layer for in-context regression."""
    N = Z.shape[-2] - 1
    scores = Z @ W_kq @ np.swapaxes(Z, -1, -2)                # (..., N+1, N+1)
    return Z + scores @ (Z @ W_pv) / N
'''
