NOTEBOOK = "07_rnn_translation_with_attention"
CELL = "alignment_accuracy"
MISTAKE = "For a batch, averages the per-sentence accuracies instead of pooling hits and aligned tokens over all sentences."
NAMED_IF = r"per[- ]sentence|pool|mean of (the )?(per|sentence)|average.{0,40}sentence|long sentence|weigh"
CODE = '''
def alignment_accuracy(weights, gold):
    """The share of aligned target tokens whose attention peak is their gold source token."""
    weights = np.asarray(weights)
    gold = np.asarray(gold)
    peak = np.argmax(weights, axis=-1)                 # (..., Lt)
    aligned = gold >= 0
    hits = (peak == gold) & aligned
    if gold.ndim == 1:
        return float(hits.sum() / aligned.sum())
    per_sentence = hits.reshape(-1, gold.shape[-1]).sum(-1) / aligned.reshape(-1, gold.shape[-1]).sum(-1)
    return float(np.mean(per_sentence))
'''
