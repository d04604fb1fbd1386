NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Reads Dk from K.shape[0] as if the keys were stored as columns (Dk, Lk), so the scores are divided by sqrt(Lk).'
NAMED_IF = 'scal|sqrt|√|\\bLk\\b|number of keys'
CODE = '''def attend(q, K, V):
    d_k = K.shape[0]
    scores = K @ q / np.sqrt(d_k)
    w = attnlab.softmax(scores)
    return w @ V, w
'''
