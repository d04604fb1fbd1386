NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Reads column t - P (the earlier occurrence itself) instead of t - P + 1 (the token after it).'
NAMED_IF = 'one step|right|\\+ ?1|t ?- ?P ?\\+ ?1|next token|after (the|its) earlier|itself|token that followed'
CODE = '''def prefix_matching_score(weights, period):
    weights = np.asarray(weights)
    L = weights.shape[-1]
    t = np.arange(period, L)
    return float(weights[..., t, t - period].mean())
'''
