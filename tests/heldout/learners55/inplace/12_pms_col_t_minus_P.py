NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Reads column t - P (the earlier occurrence itself) instead of t - P + 1 (the token after it).'
NAMED_IF = r"off.by.one|t ?- ?P ?\+ ?1|column|token (that )?follow|next token|occurrence itself|previous occurrence|t ?- ?P\b"
CODE = '''def prefix_matching_score(weights, period):
    L = weights.shape[-1]
    rows = np.arange(period, L)
    cols = rows - period
    return float(weights[..., rows, cols].mean())
'''
