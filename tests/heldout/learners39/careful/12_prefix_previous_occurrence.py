NOTEBOOK = "12_what_attention_learns"
CELL = "prefix_matching_score"
MISTAKE = "Reads the column t - P (the previous occurrence itself) instead of t - P + 1 (the token after it)."
NAMED_IF = r"t ?- ?P ?\+ ?1|t ?- ?period ?\+ ?1|after (the|it)|previous occurrence|off[- ]by[- ]one|column"
CODE = '''
def prefix_matching_score(weights, period):
    """How much a head attends to the token after the previous occurrence of the current one."""
    weights = np.asarray(weights, dtype=float)
    L = weights.shape[-1]
    t = np.arange(period, L)
    return float(weights[..., t, t - period].mean())
'''
