NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Divides the scores by Dk instead of sqrt(Dk).'
NAMED_IF = 'sqrt|√|square root|scal|temperature|divid'
CODE = '''def attend(q, K, V):
    Dk = q.shape[-1]
    s = K @ q / Dk
    w = attnlab.softmax(s)
    return w @ V, w
'''
