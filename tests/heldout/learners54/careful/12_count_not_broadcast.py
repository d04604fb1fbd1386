NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Counts the queries on the tokens before broadcasting them to the weights' leading axes, so each query is counted once instead of once per matrix and the score is inflated by the number of heads or matrices."
NAMED_IF = r"(count|counted|counting)[^.]*(once|per matri|per head|each head|every head|leading ax|before broadcast)|(number of|too few) (counted )?queries[^.]*(heads?|broadcast)|(heads?|matri\w*)[^.]*(counted|count) once|inflat|(above|exceeds?|greater than|more than) 1\b|denominator"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.asarray(tokens)
    targets = np.zeros(tok.shape + (L,), dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    on_targets = (weights * targets).sum(-1)
    return float(on_targets.sum() / counted.sum())
'''
