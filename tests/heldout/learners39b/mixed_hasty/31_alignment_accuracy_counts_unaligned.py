NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Averages over all target tokens, including those with gold = -1 (aligned to nothing), instead of over the aligned ones only.'
NAMED_IF = '-1|unaligned|aligned to nothing|not aligned|denominator|count|ignore|exclud|aligned (target )?tokens'
CODE = '''\
def alignment_accuracy(weights, gold):
    """The share of aligned target tokens whose attention peak is their gold source token."""
    weights = np.asarray(weights)
    gold = np.asarray(gold)
    peaks = weights.argmax(axis=-1)          # (..., Lt)
    return float(np.mean(peaks == gold))
'''
