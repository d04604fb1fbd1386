NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Takes the softmax of all scores and then zeros the blocked weights in place, without renormalising the allowed ones.'
NAMED_IF = r"renormali|after (the )?softmax|sum to (less than )?(one|1)|(don't|do not|does not|doesn't) sum|zero(ed|ing|es)? (the )?(blocked |masked )?weights after|before (the )?softmax"
CODE = '''def masked_softmax(scores, mask):
    w = attnlab.softmax(scores, axis=-1)
    w *= np.broadcast_to(mask, w.shape)
    return w
'''
