NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = "Runs full self-attention: every row, the query's included, is a key and a value (as an ordinary self-attention layer would), instead of the N example rows only."
NAMED_IF = 'query (row|token)[^.]{0,60}(key|value)|N ?\\+ ?1|(includ|use)[^.]{0,30}(query|last) (row|token)|examples? (rows? )?only|Z_c|first N rows'
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Z = np.asarray(Z, dtype=float)
    N = Z.shape[-2] - 1
    scores = Z @ W_kq @ np.swapaxes(Z, -1, -2)
    return Z + scores @ (Z @ W_pv) / N
'''
