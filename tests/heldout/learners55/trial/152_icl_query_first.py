NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Puts the query row first, above the examples, instead of last.'
NAMED_IF = 'first|last|order|under|bottom|after|row N'
CODE = '''def icl_prompt(X, y, x_query):
    ex = np.concatenate([X, y[..., None]], axis=-1)
    q = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
    return np.concatenate([q[..., None, :], ex], axis=-2)
'''
