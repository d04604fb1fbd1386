NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'For a batch, averages the per-sentence accuracies instead of pooling hits and aligned tokens over all sentences.'
NAMED_IF = r"per.sentence|mean of (the )?(accurac|fractions|ratios|sentences)|pool|weigh|long(er)? sentence|over all sentences|together|batch"
CODE = '''def alignment_accuracy(weights, gold):
    gold = np.asarray(gold)
    peaks = np.argmax(weights, axis=-1)
    aligned = gold >= 0
    hits = (peaks == gold) & aligned
    if gold.ndim == 1:
        return float(hits.sum() / aligned.sum())
    per = hits.reshape(-1, gold.shape[-1]).sum(-1) / aligned.reshape(-1, gold.shape[-1]).sum(-1)
    return float(np.mean(per))
'''
