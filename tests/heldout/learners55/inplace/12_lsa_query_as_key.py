NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Uses all N+1 rows (the query token included) as keys and values instead of only the N examples.'
NAMED_IF = r"query (token|row)[^.]{0,40}(key|answer|value)|only (the )?examples|all (the )?rows|N ?\+ ?1|last row|\banswer"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    N = Z.shape[-2] - 1
    S = (Z @ W_kq) @ np.swapaxes(Z, -1, -2)
    return Z + S @ (Z @ W_pv) / N
'''
