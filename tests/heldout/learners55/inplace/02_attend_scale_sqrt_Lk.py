NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Divides the scores in place by sqrt(len(K)), the number of keys Lk, instead of sqrt(Dk).'
NAMED_IF = r"sqrt\(?\s*(L|Lk|N)\b|√ ?L|number of keys|(wrong|incorrect) scal|scal\w* by (the )?(length|number)|\bLk\b|instead of (the )?(sqrt|√) ?\(?D"
CODE = '''def attend(q, K, V):
    scores = K @ q
    scores /= np.sqrt(len(K))
    weights = attnlab.softmax(scores)
    return weights @ V, weights
'''
