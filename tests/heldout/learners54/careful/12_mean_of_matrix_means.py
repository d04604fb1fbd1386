NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Scores each matrix separately and averages the per-matrix means, so matrices with few counted queries weigh as much as those with many."
NAMED_IF = r"\bpool(ed|ing)? (over|the queries|every)|weigh(s|ing|t)? the same|equal(ly)? weigh|mean of (the )?means|average of (the )?averages|per[- ](matrix|sequence|head) (mean|average|score)s?|(score|average)s? each (matrix|sequence|head) separately|few counted queries"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1).reshape(-1, L)
    per_query = (weights * targets).sum(-1).reshape(-1, L)
    means = [s[c].mean() for s, c in zip(per_query, counted) if c.any()]
    if not means:
        raise ValueError("tokens: no token occurs twice")
    return float(np.mean(means))
'''
