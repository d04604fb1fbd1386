NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Takes the largest weight among a query's targets instead of their sum, so a head that splits its weight between two earlier occurrences scores below 1."
NAMED_IF = r"\bsum\b|\bsums\b|summ|add(ed|s|ing)? (up )?the weights|split|several (targets|keys|occurrences)|two (targets|keys|earlier)|more than one (target|key|occurrence)|every (earlier )?occurrence|all (the )?(targets|keys after)|\bmax|largest"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float(np.where(targets, weights, 0.0).max(-1)[counted].mean())
'''
