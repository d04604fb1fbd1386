NOTEBOOK = '12_what_attention_learns'
CELL = 'induction_score'
MISTAKE = 'Averages over every query, including those whose token never occurred before (they score 0), instead of only the queries with a target.'
NAMED_IF = 'quer(y|ies) (without|with no)|no target|never occurred|count(ed|s)?|nothing to copy|occurred before'
CODE = '''def induction_score(weights, tokens):
    weights = np.asarray(weights)
    tokens = np.broadcast_to(np.asarray(tokens), weights.shape[:-1])
    L = weights.shape[-1]
    prev = np.concatenate([np.full(tokens.shape[:-1] + (1,), -10**9), tokens[..., :-1]], axis=-1)
    target = (prev[..., None, :] == tokens[..., :, None]) & (np.arange(L)[None, :] - 1 < np.arange(L)[:, None])
    if not target.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * target).sum(axis=-1).mean())
'''
