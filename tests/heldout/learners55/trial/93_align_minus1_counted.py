NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Divides by all tokens, unaligned (-1) ones included.'
NAMED_IF = '-1|unaligned|aligned|denominator|left out|count'
CODE = '''def alignment_accuracy(weights, gold):
    weights = np.asarray(weights); gold = np.asarray(gold)
    peak = np.argmax(weights, axis=-1)
    hits = (peak == gold) & (gold >= 0)
    return float(hits.sum() / gold.size)
'''
