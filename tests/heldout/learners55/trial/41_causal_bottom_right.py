NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = "Uses np.tril with offset k=Lk-Lq (bottom-right alignment), which agrees with the course's top-left mask only when Lq == Lk."
NAMED_IF = 'top[- ]left|bottom[- ]right|align|diagonal|offset|L_?q ?(!=|≠|<|>|differs)|non-?square|rectangular|more keys|fewer keys'
CODE = '''def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)
'''
