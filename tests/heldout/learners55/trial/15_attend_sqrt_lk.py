NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Scales by the square root of the number of keys Lk (which equalled Dk in the example the learner tried) instead of sqrt(Dk).'
NAMED_IF = 'D_?k|width|L_?k|number of keys|sqrt|√|scal'
CODE = '''def attend(q, K, V):
    s = K @ q / np.sqrt(K.shape[0])
    w = attnlab.softmax(s)
    return w @ V, w
'''
