NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Compares positions <= lengths, so the first padding position (j == length) is marked real.'
NAMED_IF = r"off.by.one|<=|one (too many|extra|more)|j ?<= ?len|includ\w* (the )?(first )?pad|length itself|position (equal to|==) (the )?length|j ?< ?len"
CODE = '''def padding_mask(lengths, Lk):
    lengths = np.asarray(lengths)
    m = np.zeros((len(lengths), Lk), dtype=bool)
    m |= np.arange(Lk)[None, :] <= lengths[:, None]
    return m
'''
