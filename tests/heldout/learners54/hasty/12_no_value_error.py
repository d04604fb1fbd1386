NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Returns 0.0 instead of raising a ValueError naming tokens when no query has a key after an earlier occurrence."
NAMED_IF = r"valueerror|raise|no (query|token)[^.]*(target|twice|repeat|earlier)|never repeats|occurs twice|no repeat"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    scores = (weights * targets).sum(-1)[targets.any(-1)]
    return float(scores.mean()) if scores.size else 0.0
'''
