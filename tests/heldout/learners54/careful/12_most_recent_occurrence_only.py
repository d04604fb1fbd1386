NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Counts only the key after the most recent earlier occurrence of the query's token, so weight on keys after older occurrences is lost."
NAMED_IF = r"\bsum\b|\bsums\b|summ|add(ed|s|ing)? (up )?the weights|split|several (targets|keys|occurrences)|two (targets|keys|earlier)|more than one (target|key|occurrence)|every (earlier )?occurrence|all (the )?(targets|keys after)|(most recent|latest|last|nearest|previous) (earlier )?occurrence( only)?|only one (target|key)|older occurrences?"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    match = np.zeros(weights.shape, dtype=bool)
    match[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    match &= np.tril(np.ones((L, L), dtype=bool))
    counted = match.any(-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    latest = np.where(match, np.arange(L), -1).max(-1)
    picked = np.take_along_axis(weights, np.maximum(latest, 0)[..., None], axis=-1)[..., 0]
    return float(picked[counted].mean())
'''
