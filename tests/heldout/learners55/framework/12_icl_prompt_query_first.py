NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Puts the query token first, as a [CLS] token, instead of after the examples.'
NAMED_IF = 'first|order|last row|prepend|top|beginning|before the examples|after the examples'
CODE = '''def icl_prompt(X, y, x_query):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    x_query = np.asarray(x_query, dtype=float)
    rows = np.concatenate([X, y[..., None]], axis=-1)
    q = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)[..., None, :]
    return np.concatenate([q, rows], axis=-2)
'''
