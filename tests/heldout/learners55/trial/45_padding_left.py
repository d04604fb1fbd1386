NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Puts the real tokens at the end of each row (left padding), True where j >= Lk - lengths[b].'
NAMED_IF = 'left|right|\\bend\\b|start|beginning|first|last|front'
CODE = '''def padding_mask(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.arange(Lk)[None, :] >= (Lk - lengths)[:, None]
'''
