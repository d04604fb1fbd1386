NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Stacks the query token above the examples instead of below them.'
NAMED_IF = r"\border|\bfirst|\blast|bottom|top|query (row|token) (goes|comes|should be|must be)|after the examples"
CODE = '''def icl_prompt(X, y, x_query):
    q = np.zeros(x_query.shape[:-1] + (x_query.shape[-1] + 1,))
    q[..., :-1] = x_query
    return np.concatenate([q[..., None, :], np.concatenate([X, y[..., None]], axis=-1)], axis=-2)
'''
