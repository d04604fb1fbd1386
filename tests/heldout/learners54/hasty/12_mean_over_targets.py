NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Divides each query's weight on its targets by the number of targets (a mean over the targets instead of their sum), so a head splitting its weight between two earlier occurrences scores below 1."
NAMED_IF = r"\bsum\b|\bsums\b|summ|add(ed|s|ing)? (up )?the weights|split|several (targets|keys|occurrences)|two (targets|keys|earlier)|more than one (target|key|occurrence)|every (earlier )?occurrence|all (the )?(targets|keys after)|(averag|mean)[^.]*(over|of) (its |the )?(targets|keys)|number of targets"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    n = targets.sum(-1)
    counted = n > 0
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    per_query = (weights * targets).sum(-1)[counted] / n[counted]
    return float(per_query.mean())
'''
