NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Treats the query as a column vector (Dk, 1): the scores come out (Lk, 1) and the softmax over the last axis (length 1) makes every weight 1.'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|sum(s)? to (one|1)|all (ones|1)|length[- ]1|column vector|keepdims'
CODE = '''def attend(q, K, V):
    q = np.asarray(q, dtype=float)
    s = K @ q[:, None] / np.sqrt(q.shape[0])       # (Lk, 1), column convention
    w = attnlab.softmax(s, axis=-1)               # (Lk, 1)
    out = (w.T @ V)[0]                            # (Dv,)
    return out, w[:, 0]
'''
