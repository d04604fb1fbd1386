NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Reads the column t - P (the previous occurrence itself) instead of t - P + 1 (the token after it).'
NAMED_IF = r"t ?- ?P\b(?! ?\+)|previous occurrence itself|(the )?(token|one|position) after|t ?- ?P ?\+ ?1|off by one"
CODE = '''def prefix_matching_score(weights, period):
    w = torch.as_tensor(weights)
    L = w.shape[-1]
    t = torch.arange(period, L)
    return float(w[..., t, t - period].mean())
'''
