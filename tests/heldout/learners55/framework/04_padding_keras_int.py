NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Returns a Keras-style 1/0 mask of int32 (1 = keep) instead of booleans.'
NAMED_IF = 'bool|int|dtype|0/1|1/0|float|type|numbers'
CODE = '''def padding_mask(lengths, Lk):
    return (np.arange(Lk)[None, :] < np.asarray(lengths)[:, None]).astype(np.int32)
'''
