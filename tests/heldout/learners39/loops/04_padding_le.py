NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Uses j <= lengths[b] instead of j < lengths[b], letting every sequence see one padding position too many.'
NAMED_IF = r'<=|off.by.one|one (extra|too many|more)|strict|j ?< ?length|first pad'
CODE = '''def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    B = len(lengths)
    mask = np.zeros((B, Lk), dtype=bool)
    for b in range(B):
        for j in range(Lk):
            mask[b, j] = j <= lengths[b]
    return mask
'''
