NOTEBOOK = "12_what_attention_learns"
CELL = "induction_score"
MISTAKE = "Decides whether to raise by looking for a repeated token among all the (broadcast) tokens pooled together, so a token repeated across sequences or heads but never within one returns nan instead of raising."
NAMED_IF = r"valueerror|raise|no (query|token)[^.]*(target|twice|repeat|earlier)|within (a|each|one) sequence|occurs twice|\bnan\b|across (sequences|heads|matri)"
CODE = '''def induction_score(weights, tokens):
    L = weights.shape[-1]
    tok = np.broadcast_to(tokens, weights.shape[:-1])
    if np.unique(tok).size == tok.size:
        raise ValueError("tokens: no token occurs twice")
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tok[..., :, None] == tok[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(-1)
    return float((weights * targets).sum(-1)[counted].mean())
'''
