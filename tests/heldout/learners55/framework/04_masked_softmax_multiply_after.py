NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'masked_softmax'
MISTAKE = 'Takes the softmax over all keys and then multiplies by the mask (old Keras habit), without renormalising: the allowed weights no longer sum to one.'
NAMED_IF = 'renormali|after (the )?softmax|sum(s)? to (one|1)|do(es)? not sum|before (the )?(normali|softmax)'
CODE = '''def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    w = attnlab.softmax(scores, axis=-1)
    return w * np.broadcast_to(mask, scores.shape)
'''
