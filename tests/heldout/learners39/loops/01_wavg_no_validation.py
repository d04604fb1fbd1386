NOTEBOOK = '01_weighted_averages'
CELL = 'weighted_average'
MISTAKE = 'Never validates the weights: no ValueError for negative weights, a sum far from 1, or a wrong length; it just loops and sums.'
NAMED_IF = r'ValueError|raise|reject|validat|negative|simplex'
CODE = '''def weighted_average(values, weights):
    """Weighted average of the rows of `values`."""
    values = np.array(values, dtype=float)
    weights = np.array(weights, dtype=float)
    N, D = values.shape
    result = np.zeros(D)
    for i in range(N):
        result = result + weights[i] * values[i]
    return result
'''
