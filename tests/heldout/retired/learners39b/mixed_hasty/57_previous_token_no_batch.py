NOTEBOOK = '12_what_attention_learns'
CELL = 'previous_token_score'
MISTAKE = 'Loops over weights[t, t-1], which indexes the first two axes: right for one (L, L) matrix, wrong (or an error) with leading batch axes.'
NAMED_IF = 'batch|leading (axis|axes|dim)|rank|first two axes|\\.\\.\\.|ellipsis|only (works )?for (one|a single)|2-?d'
CODE = '''\
def previous_token_score(weights):
    """How much a head attends to the previous token."""
    L = weights.shape[-1]
    total = 0.0
    for t in range(1, L):
        total += weights[t, t - 1]
    return float(total / (L - 1))
'''
