NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Counts the weight on the earlier occurrence of the query's token itself (tokens[j] == tokens[t]) instead of on the key just after it."
NAMED_IF = r"occurrence itself|(one|1) (key|column|position) (too )?(early|to the left)|(reads|attends to|weight on) the (earlier|previous) occurrence|tokens\[j\] ?== ?tokens\[t\]|not (on )?the key after"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = (tok[..., :, None] == tok[..., None, :]) & np.tril(np.ones((L, L), dtype=bool), k=-1)
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1)[counted].mean())
'''
