NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Divides by every target token, counting the gold = -1 tokens as aligned ones.'
NAMED_IF = r"-1|unaligned|aligned tokens|denominator|left out|count\w* (neither|the unaligned)|every (target )?token"
CODE = '''def alignment_accuracy(weights, gold):
    gold = np.asarray(gold)
    peaks = np.argmax(weights, axis=-1)
    hits = (peaks == gold) & (gold >= 0)
    return float(hits.sum() / gold.size)
'''
