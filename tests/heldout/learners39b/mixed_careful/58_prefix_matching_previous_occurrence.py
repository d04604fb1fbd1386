NOTEBOOK = '12_what_attention_learns'
CELL = 'prefix_matching_score'
MISTAKE = 'Reads weights[t, t - period], the previous occurrence itself, instead of the token after it, weights[t, t - period + 1].'
NAMED_IF = 'after|t ?- ?period ?\\+ ?1|off[- ]by[- ]one|occurrence|shift|next token|one (position|column)'
CODE = '''\
def prefix_matching_score(weights, period):
    """How much a head attends to the token after the previous occurrence of the current one."""
    L = weights.shape[-1]
    t = np.arange(period, L)
    return float(weights[..., t, t - period].mean())
'''
