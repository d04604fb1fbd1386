NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Indexes the weights as [key, query] (column convention), weights[..., t-P+1, t], instead of row t, column t-P+1.'
NAMED_IF = 'transpos|swap|rows?[^.]{0,30}columns?|\\[t, ?t ?- ?P ?\\+ ?1\\]|key[^.]{0,20}query|upper'
CODE = '''def prefix_matching_score(weights, period):
    weights = np.asarray(weights, dtype=float)
    L = weights.shape[-1]
    rows = np.arange(period, L)
    cols = rows - period + 1
    return float(weights[..., cols, rows].mean())
'''
