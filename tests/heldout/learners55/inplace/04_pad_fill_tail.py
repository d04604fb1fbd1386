NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = "Fills each row's slice from the length on (m[b, n:] = True): True on the padding, the opposite of the convention."
NAMED_IF = r"invert|opposite|padding (is|as|gets?) True|True (at|on|for) (the )?pad|negat|flip|~|reversed|convention"
CODE = '''def padding_mask(lengths, Lk):
    m = np.zeros((len(lengths), Lk), dtype=bool)
    for b, n in enumerate(lengths):
        m[b, n:] = True
    return m
'''
