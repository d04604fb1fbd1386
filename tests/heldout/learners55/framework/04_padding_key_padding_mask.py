NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = "Returns PyTorch's key_padding_mask (True at the padding) instead of True at the real tokens."
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention|padding (positions|tokens)|at (the )?pad'
CODE = '''def padding_mask(lengths, Lk):
    return np.arange(Lk)[None, :] >= np.asarray(lengths)[:, None]
'''
