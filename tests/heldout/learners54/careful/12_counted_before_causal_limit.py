NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Decides which queries count before applying the causal limit, so a query whose token only occurs later is counted with a score of 0."
NAMED_IF = r"(queries|query)[^.]*(no|without|never)[^.]*(earlier occurrence|target)|(decid|choos|select)\w*[^.]*(queries|counted)[^.]*before[^.]*(causal|tril|limit)|(token|which) only (occurs|appears) later|(never|not) occurred (before|earlier)|(counted|counts?) (it )?(as|with a score of) (0|zero)"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    same = np.zeros(weights.shape, dtype=bool)
    same[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    counted = same.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    targets = same & np.tril(np.ones((L, L), dtype=bool))
    return float((weights * targets).sum(-1)[counted].mean())
'''
