NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = "Fills the query's unknown target with 1 (copied from append_ones) instead of 0."
NAMED_IF = "zero|\\b0\\b|contributes nothing|unknown target|query('s)? (row|token|target)"
CODE = '''def icl_prompt(X, y, x_query):
    ex = np.concatenate([X, y[..., None]], axis=-1)
    q = np.concatenate([x_query, np.ones(x_query.shape[:-1] + (1,))], axis=-1)
    return np.concatenate([ex, q[..., None, :]], axis=-2)
'''
