NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Computes the accuracy with torch and returns a 0-d torch tensor instead of a Python float.'
NAMED_IF = r"tensor|torch|python float|\bfloat\b|type"
CODE = '''def alignment_accuracy(weights, gold):
    w = torch.as_tensor(weights)
    g = torch.as_tensor(gold)
    peak = w.argmax(dim=-1)                 # (..., Lt)
    aligned = g >= 0
    hits = (peak == g) & aligned
    return hits.sum() / aligned.sum()
'''
