NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Loops the keys from j = 0, where tokens[j - 1] wraps round to the last token, so key 0 counts as a target whenever the last token equals the query's token."
NAMED_IF = r"key 0|first key|column 0|wrap|tokens\[-1\]|negative index|last token|j ?= ?0|j ?(>=|≥) ?1"
CODE = '''def induction_score(weights, tokens):
    W = np.asarray(weights)
    L = W.shape[-1]
    tok = np.broadcast_to(tokens, W.shape[:-1]).reshape(-1, L)
    W = W.reshape(-1, L, L)
    total, count = 0.0, 0
    for m in range(W.shape[0]):
        for t in range(L):
            s, found = 0.0, False
            for j in range(t + 1):
                if tok[m, j - 1] == tok[m, t]:
                    s += W[m, t, j]
                    found = True
            if found:
                total += s
                count += 1
    if count == 0:
        raise ValueError("tokens: no token occurs twice")
    return total / count
'''
