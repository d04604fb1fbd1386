NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Treats every key after any occurrence of the query's token as a target, including occurrences later than the query."
NAMED_IF = r"later than the query|future|no causal|without (a |the )?causal|causal (limit|mask)?[^.]*(missing|ignored|not applied)|j ?(<=|≤) ?t|tril|(keys?|occurrences?) after the query"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1)[counted].mean())
'''
