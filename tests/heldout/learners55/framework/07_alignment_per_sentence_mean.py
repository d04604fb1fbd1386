NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = "Averages a per-sentence accuracy over the batch (Keras's per-sample metric averaging) instead of pooling the hits and aligned tokens of all sentences."
NAMED_IF = 'pool|per[- ]sentence|mean of (the )?(per|sentence|accurac)|weigh|averag|long sentence|over the whole batch'
CODE = '''def alignment_accuracy(weights, gold):
    weights = np.asarray(weights)
    gold = np.asarray(gold)
    peak = np.argmax(weights, axis=-1)
    aligned = gold >= 0
    hits = (peak == gold) & aligned
    if gold.ndim == 1:
        return float(hits.sum() / aligned.sum())
    h = hits.reshape(-1, gold.shape[-1]).sum(-1)
    a = aligned.reshape(-1, gold.shape[-1]).sum(-1)
    keep = a > 0
    return float(np.mean(h[keep] / a[keep]))
'''
