NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Reuses the name `w` for the scaled scores and returns them as the weights; the softmax is only applied inside the output expression.'
NAMED_IF = r"scores? (instead of|not|rather than) (the )?weights|weights[^.]{0,40}(not|don't|do not|does not) sum|unnormali|before (the )?softmax|raw scores|sum to (1|one)|not (on the )?simplex|softmax (is )?(missing|not applied)"
CODE = '''def attend(q, K, V):
    w = K @ q
    w /= np.sqrt(q.shape[-1])
    output = attnlab.softmax(w) @ V
    return output, w
'''
