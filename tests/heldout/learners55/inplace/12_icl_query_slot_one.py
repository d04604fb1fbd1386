NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = "Fills the unknown target's slot of the query token with 1 (np.ones) instead of 0."
NAMED_IF = r"\bzero|\b0\b|\bslot|unknown target|contribut|\bones?\b"
CODE = '''def icl_prompt(X, y, x_query):
    rows = np.concatenate([X, y[..., None]], axis=-1)
    q = np.ones(x_query.shape[:-1] + (x_query.shape[-1] + 1,))
    q[..., :-1] = x_query
    return np.concatenate([rows, q[..., None, :]], axis=-2)
'''
