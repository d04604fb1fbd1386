NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Builds the query row with np.append(x_query, 0), which flattens a batch of queries into one long row.'
NAMED_IF = r"batch|leading|shape|flatten|np\.append"
CODE = '''def icl_prompt(X, y, x_query):
    q = np.append(x_query, 0.0)
    Z = np.concatenate([X, y[..., None]], axis=-1)
    return np.concatenate([Z, np.broadcast_to(q, Z.shape[:-2] + (1, Z.shape[-1]))], axis=-2)
'''
