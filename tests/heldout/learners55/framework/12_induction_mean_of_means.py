NOTEBOOK = '12_what_attention_learns'
CELL = 'induction_score'
MISTAKE = 'Averages a score per matrix (per sequence and head) and then the mean of those, instead of pooling every counted query of every matrix with the same weight.'
NAMED_IF = 'pool|weigh(t|s)? the same|mean of (the )?(means|per)|per[- ](matrix|head|sequence)|averag|every counted query'
CODE = '''def induction_score(weights, tokens):
    w = np.asarray(weights, dtype=float)
    L = w.shape[-1]
    tok = np.broadcast_to(np.asarray(tokens), w.shape[:-1])
    targets = np.zeros(w.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no query has a token that occurred before")
    per = (w * targets).sum(-1).reshape(-1, L)
    cnt = counted.reshape(-1, L)
    means = [per[i][cnt[i]].mean() for i in range(per.shape[0]) if cnt[i].any()]
    return float(np.mean(means))
'''
