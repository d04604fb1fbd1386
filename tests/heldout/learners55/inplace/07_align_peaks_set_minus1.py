NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Sets the peaks of unaligned tokens to -1 in place to exclude them, which makes peak == gold true there: the unaligned tokens count as hits.'
NAMED_IF = r"-1|unaligned[^.]{0,40}hit|count\w* as (a )?hits?|hits?[^.]{0,40}unaligned|above 1|> ?1|more than 1"
CODE = '''def alignment_accuracy(weights, gold):
    gold = np.asarray(gold)
    peaks = np.argmax(weights, axis=-1)
    peaks[gold < 0] = -1
    hits = peaks == gold
    return float(hits.sum() / (gold >= 0).sum())
'''
