NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Reads weights[j, t] instead of weights[t, j], taking the weight key j puts on query t rather than what query t puts on key j."
NAMED_IF = r"transpos|rows? and columns?|columns? and rows?|swap|\[j, ?t\]|(query|queries)[^.]*(columns?)|(keys?)[^.]*(rows)"
CODE = '''def induction_score(weights, tokens):
    W = np.asarray(weights)
    L = W.shape[-1]
    tok = np.broadcast_to(tokens, W.shape[:-1]).reshape(-1, L)
    W = W.reshape(-1, L, L)
    total, count = 0.0, 0
    for m in range(len(W)):
        for t in range(L):
            s, hit = 0.0, False
            for j in range(1, t + 1):
                if tok[m, j - 1] == tok[m, t]:
                    s += W[m, j, t]
                    hit = True
            if hit:
                total += s
                count += 1
    if count == 0:
        raise ValueError("tokens: no token occurs twice")
    return total / count
'''
