NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Pairs the flattened matrices with the flattened token rows by zip without broadcasting, so tokens (L,) only score the first matrix and tokens (B, 1, L) are paired with the wrong heads."
NAMED_IF = r"\bzip|(tokens|sequences?)[^.]*(paired|matched) with[^.]*(wrong|other) (matri|head)|first matri|only (the )?first|not broadcast\w* (the )?tokens|tokens[^.]*not broadcast|wrong (tokens|sequence)"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    mats = np.reshape(weights, (-1, L, L))
    seqs = np.reshape(tokens, (-1, L))
    total, count = 0.0, 0
    for w, tok in zip(mats, seqs):
        for t in range(L):
            s, has = 0.0, False
            for j in range(1, t + 1):
                if tok[j - 1] == tok[t]:
                    s += w[t, j]
                    has = True
            if has:
                total += s
                count += 1
    if count == 0:
        raise ValueError("tokens: no token occurs twice")
    return total / count
'''
