NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Uses j <= lengths[b], which also marks the first padding position as real.'
NAMED_IF = '<=|off[- ]by[- ]one|one (too many|extra|more|position)|first pad|j ?< ?length|strict|includes'
CODE = '''def padding_mask(lengths, Lk):
    lengths = np.asarray(lengths)
    return np.arange(Lk)[None, :] <= lengths[:, None]
'''
