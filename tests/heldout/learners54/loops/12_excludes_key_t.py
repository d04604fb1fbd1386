NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Loops over the keys j in range(1, t), leaving out key t, which is a target when the query's token also sits just before it (a token repeated twice in a row)."
NAMED_IF = r"key t(?! ?\+)\b|j ?(<|<=|≤) ?t|adjacent|consecutive|in a row|repeated neighbou?r|doubled|diagonal|(query'?s )?own (key|column|position)|range\(1, ?t\)"
CODE = '''def induction_score(weights, tokens):
    W = np.asarray(weights)
    L = W.shape[-1]
    tok = np.broadcast_to(tokens, W.shape[:-1]).reshape(-1, L)
    W = W.reshape(-1, L, L)
    scores = []
    for m in range(W.shape[0]):
        for t in range(L):
            js = [j for j in range(1, t) if tok[m, j - 1] == tok[m, t]]
            if js:
                scores.append(sum(W[m, t, j] for j in js))
    if not scores:
        raise ValueError("tokens: no token occurs twice")
    return float(np.mean(scores))
'''
