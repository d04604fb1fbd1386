NOTEBOOK = '12_what_attention_learns'
CELL = 'induction_score'
MISTAKE = "Counts keys after any occurrence of the query's token, later ones included (no j <= t restriction)."
NAMED_IF = r"earlier|future|later|j ?<= ?t|causal|tril|before|previous occurrences?"
CODE = '''def induction_score(weights, tokens):
    tokens = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1)[counted].mean())
'''
