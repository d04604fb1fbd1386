NOTEBOOK = '12_what_attention_learns'
CELL = 'induction_score'
MISTAKE = 'Returns the mean over an empty selection (nan) instead of raising ValueError when no token occurs twice.'
NAMED_IF = r"ValueError|\braise|no (token|query)|\bnan|names? `?tokens|occurs twice"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tokens = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.mean((weights * targets).sum(-1)[counted]))
'''
