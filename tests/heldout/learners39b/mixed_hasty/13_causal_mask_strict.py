NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Uses np.tril with k=-1, i.e. j < i: a query may not attend to itself (the diagonal is masked out), and query 0 sees nothing.'
NAMED_IF = 'diagonal|itself|own position|strict|j\\s*<\\s*i|<=|off[- ]by[- ]one|k\\s*=\\s*-1|shift'
CODE = '''\
def causal_mask(Lq, Lk):
    """Causal mask: query i may attend to keys 0..i."""
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=-1)
'''
