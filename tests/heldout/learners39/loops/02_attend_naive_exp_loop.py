NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Writes its own softmax with a loop and plain np.exp, without subtracting the maximum, so scores of about a thousand overflow to inf/nan.'
NAMED_IF = r'overflow|nan|inf\b|stabl|max(imum)? (subtract|shift)|subtract\w* the max'
CODE = '''def attend(q, K, V):
    """Soft dictionary lookup: one query against a key-value store."""
    d_k = len(q)
    scores = [np.dot(K[i], q) / np.sqrt(d_k) for i in range(len(K))]
    exps = [np.exp(s) for s in scores]
    total = sum(exps)
    weights = np.array([e / total for e in exps])
    output = np.zeros(V.shape[1])
    for i in range(len(K)):
        output += weights[i] * V[i]
    return output, weights
'''
