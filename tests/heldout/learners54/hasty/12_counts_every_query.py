NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Averages over every query, counting the queries whose token has not occurred before as 0, so even an ideal head scores below 1."
NAMED_IF = r"(queries|query)[^.]*(no|without|never)[^.]*(target|earlier occurrence|occurred|copy)|(averag|mean)\w*[^.]*(every|all( the)?) quer|(never|not) occurred (before|earlier)|first occurrences?|(counted|counts?) as (0|zero)"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    if not targets.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1).mean())
'''
