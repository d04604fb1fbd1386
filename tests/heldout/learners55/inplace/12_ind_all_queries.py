NOTEBOOK = '12_what_attention_learns'
CELL = 'induction_score'
MISTAKE = 'Averages over every query, including the queries whose token never occurred before (they count as 0).'
NAMED_IF = r"counted|queries (with|without)|no (earlier )?occurrence|every query|all (the )?queries|at least one|never occurred|first occurrence"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tokens = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    if not targets.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1).mean())
'''
