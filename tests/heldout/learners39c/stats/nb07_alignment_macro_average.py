NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'for a batch, averages the per-sentence accuracies (macro average) instead of pooling hits over all sentences'
NAMED_IF = 'per.?sentence|average of|macro|mean of|pool|over all|weigh|together|long sentence'
CODE = '''def alignment_accuracy(weights, gold):
    """The share of aligned target tokens whose attention peak is their gold source token."""
    W = np.asarray(weights, dtype=float); g = np.asarray(gold)
    if W.shape[:-1] != g.shape:
        raise ValueError(f"weights {W.shape} and gold {g.shape} disagree")
    W2 = W.reshape(-1, *W.shape[-2:]); g2 = g.reshape(-1, g.shape[-1])
    accs = []
    for Wb, gb in zip(W2, g2):
        aligned = gb >= 0
        if aligned.sum() == 0:
            continue
        accs.append(np.mean(np.argmax(Wb, axis=-1)[aligned] == gb[aligned]))
    return float(np.mean(accs))
'''
