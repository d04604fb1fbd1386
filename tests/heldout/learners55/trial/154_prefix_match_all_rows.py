NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Averages over all L rows (the rows before the repeat counted as zero) instead of only the rows t >= P.'
NAMED_IF = 'rows?|positions? (of the repeat|that count)|t ?>= ?P|from P|before P|first P|mean over'
CODE = '''def prefix_matching_score(weights, period):
    weights = np.asarray(weights)
    L = weights.shape[-1]
    t = np.arange(period, L)
    vals = weights[..., t, t - period + 1]
    return float(vals.sum(axis=-1).mean() / L)
'''
