NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Applies the causal limit to the shifted (L, L-1) block with np.tril(k=0), i.e. j - 1 <= t, so every query compares its token with itself and key t + 1 always counts as a target."
NAMED_IF = r"future|next (key|position)|key t ?\+ ?1|t ?\+ ?1|(compar|match)\w*[^.]*(own|same|itself)|own token|later (key|position)|causal limit[^.]*(one|1)|off.by.one|j ?- ?1 ?(<|<=|≤) ?t"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = (tok[..., :, None] == tok[..., None, :-1]) & np.tril(np.ones((L, L - 1), dtype=bool))
    counted = targets.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(-1)[counted].mean())
'''
