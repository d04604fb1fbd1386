NOTEBOOK = '13_attention_variants'
CELL = 'absorbed_query_map'
MISTAKE = "Takes head h's columns as the strided W[:, h::H] instead of the block h*Dh:(h+1)*Dh."
NAMED_IF = r"strid|block|columns? h\b|every H|h ?\* ?Dh|consecutive|\bslice|which columns"
CODE = '''def absorbed_query_map(W_q, W_uk, H):
    return np.stack([W_q[:, h::H] @ W_uk[:, h::H].T for h in range(H)])
'''
