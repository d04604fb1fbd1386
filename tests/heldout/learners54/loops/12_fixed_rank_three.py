NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Loops over one leading axis only (weights (B, L, L)), so weights with two leading axes such as (B, H, L, L) crash."
NAMED_IF = r"(two|several|more|extra|multiple) leading ax|heads? ax|4-?d|\brank\b|ndim|\(b, ?h, ?l, ?l\)|one leading axis"
CODE = '''def induction_score(weights, tokens):
    weights = np.asarray(weights)
    tokens = np.asarray(tokens)
    if weights.ndim == 2:
        weights = weights[None]
    L = weights.shape[-1]
    total, count = 0.0, 0
    for b in range(weights.shape[0]):
        w = weights[b]
        tok = tokens[b] if tokens.ndim > 1 else tokens
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
    return float(total / count)
'''
