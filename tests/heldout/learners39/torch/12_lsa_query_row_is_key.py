NOTEBOOK = '12_what_attention_learns'
CELL = 'linear_self_attention'
MISTAKE = 'Uses all N+1 rows of Z (the query row included) as keys and values instead of the N example rows Z_c.'
NAMED_IF = r"query row|last row|example rows|Z_c|\(N ?\+ ?1, ?N\)|N ?\+ ?1 (rows|keys)|keys?.{0,30}(query row|last row)"
CODE = '''def linear_self_attention(Z, W_kq, W_pv):
    Z = torch.as_tensor(Z)
    W_kq, W_pv = torch.as_tensor(W_kq), torch.as_tensor(W_pv)
    N = Z.shape[-2] - 1
    scores = Z @ W_kq @ Z.transpose(-1, -2)        # (..., N+1, N+1)
    update = scores @ (Z @ W_pv) / N
    return (Z + update).numpy()
'''
