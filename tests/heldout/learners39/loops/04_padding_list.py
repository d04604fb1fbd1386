NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Returns a nested Python list of booleans instead of a boolean numpy array.'
NAMED_IF = r'list|ndarray|type'
CODE = '''def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    return [[j < lengths[b] for j in range(Lk)] for b in range(len(lengths))]
'''
