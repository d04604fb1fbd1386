NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Averages over t = P-1 .. L-1 instead of t = P .. L-1, including one row (t = P-1, column 0) that has no previous occurrence.'
NAMED_IF = r"P ?- ?1|range|from t ?= ?P|t ?>= ?P|t ?= ?P\b|start|first (row|position)|no previous occurrence|rows? t"
CODE = '''def prefix_matching_score(weights, period):
    w = torch.as_tensor(weights)
    L = w.shape[-1]
    rows = torch.arange(period - 1, L)
    cols = rows - period + 1
    return w[..., rows, cols].mean().item()
'''
