NOTEBOOK = '02_query_key_value'
CELL = 'attend'
MISTAKE = 'Computes the weights and the output correctly but returns them in the wrong order, (weights, output) instead of (output, weights).'
NAMED_IF = 'order|swap|(weights|output).{0,40}(first|second|before|after)|wrong (position|slot)|return(s|ed)? .{0,20}(tuple|pair)'
CODE = '''\
def attend(q, K, V):
    """Soft dictionary lookup: one query against a key-value store."""
    d_k = q.shape[-1]
    scores = K @ q / np.sqrt(d_k)            # (Lk,)
    scores = scores - scores.max()
    weights = np.exp(scores)
    weights = weights / weights.sum()        # (Lk,)
    output = weights @ V                      # (Dv,)
    return weights, output
'''
