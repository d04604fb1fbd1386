NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'compares positions counted from 1 with a strict <, so the last real token is marked as padding'
NAMED_IF = 'off.?by.?one|one (too )?(few|short|many|less)|last (real )?token|j ?< ?len|<=|length|1.?based'
CODE = '''def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    lengths = np.asarray(lengths)
    pos = np.arange(1, Lk + 1)
    return pos[None, :] < lengths[:, None]
'''
