NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Forgets the 1/N of the gradient.'
NAMED_IF = r"\bN\b|divid|number of examples|\bmean\b|1 ?/ ?N|2N"
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    g = np.einsum("...nd,...n->...d", X, y)
    w1 = g @ Gamma.T
    return (w1 * x_query).sum(-1)
'''
