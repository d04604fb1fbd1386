NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Takes the peak with argmax(axis=1) by habit: the source axis for one (Lt, Ls) matrix, but the target axis for a batch (B, Lt, Ls).'
NAMED_IF = 'axis|normali[sz](ed|es|ing)? (over|along|across) (the )?(wrong|columns|queries|batch|first)|wrong (axis|dimension)|columns? sum|peak (over|along)|argmax'
CODE = '''def alignment_accuracy(weights, gold):
    weights = np.asarray(weights)
    gold = np.asarray(gold)
    peak = np.argmax(weights, axis=1)
    aligned = gold >= 0
    hits = (peak == gold) & aligned
    return float(hits.sum() / aligned.sum())
'''
