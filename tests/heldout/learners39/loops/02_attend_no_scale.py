NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Forgets to divide the scores by sqrt(Dk).'
NAMED_IF = r'scal|sqrt|√|D_?k'
CODE = '''def attend(q, K, V):
    """Soft dictionary lookup: one query against a key-value store."""
    scores = K @ q
    weights = attnlab.softmax(scores)
    output = weights @ V
    return output, weights
'''
