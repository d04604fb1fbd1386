NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Starts the rows at P - 1 instead of P, counting a position that has no token one period back.'
NAMED_IF = r"\brows?|positions? (that )?count|repeat|off.by.one|P ?- ?1|\bstart|first position"
CODE = '''def prefix_matching_score(weights, period):
    L = weights.shape[-1]
    rows = np.arange(period - 1, L)
    return float(weights[..., rows, rows - period + 1].mean())
'''
