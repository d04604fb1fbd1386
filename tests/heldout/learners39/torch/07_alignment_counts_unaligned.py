NOTEBOOK = '07_rnn_translation_with_attention'
CELL = 'alignment_accuracy'
MISTAKE = 'Divides the hits by all target tokens (mean over every token) instead of by the aligned tokens only, so tokens with gold -1 lower the score.'
NAMED_IF = r"-1|unaligned|aligned to nothing|denominator|divid|only (the )?aligned|aligned tokens only"
CODE = '''def alignment_accuracy(weights, gold):
    w = torch.as_tensor(weights, dtype=torch.float64)
    g = torch.as_tensor(gold, dtype=torch.long)
    hits = (w.argmax(dim=-1) == g).float()
    return hits.mean().item()
'''
