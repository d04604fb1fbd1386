NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Breaks out of the key loop at the first match, so only the key after the earliest occurrence counts and weight on later occurrences is lost."
NAMED_IF = r"\bsum\b|\bsums\b|summ|add(ed|s|ing)? (up )?the weights|split|several (targets|keys|occurrences)|two (targets|keys|earlier)|more than one (target|key|occurrence)|every (earlier )?occurrence|all (the )?(targets|keys after)|(first|earliest|one) (earlier )?occurrence|only one (target|key)"
CODE = '''def induction_score(weights, tokens):
    W = np.asarray(weights)
    L = W.shape[-1]
    tok = np.broadcast_to(tokens, W.shape[:-1]).reshape(-1, L)
    W = W.reshape(-1, L, L)
    vals = []
    for m in range(W.shape[0]):
        for t in range(1, L):
            for j in range(1, t + 1):
                if tok[m, j - 1] == tok[m, t]:
                    vals.append(W[m, t, j])
                    break
    if len(vals) == 0:
        raise ValueError("tokens: no token occurs twice")
    return float(np.mean(vals))
'''
