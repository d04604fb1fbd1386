NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'On a batch, averages the per-sentence accuracies instead of pooling the counts over all sentences.'
NAMED_IF = 'pool|together|per[- ]sentence|mean of|average of|weigh|long sentence'
CODE = '''def alignment_accuracy(weights, gold):
    weights = np.asarray(weights); gold = np.asarray(gold)
    peak = np.argmax(weights, axis=-1)
    aligned = gold >= 0
    hits = (peak == gold) & aligned
    if gold.ndim == 1:
        return float(hits.sum() / aligned.sum())
    return float(np.mean(hits.sum(axis=-1) / aligned.sum(axis=-1)))
'''
