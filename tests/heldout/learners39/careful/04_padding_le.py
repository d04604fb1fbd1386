NOTEBOOK = "04_masks_and_cross_attention"
CELL = "padding_mask"
MISTAKE = "Compares j <= lengths[b] instead of j < lengths[b], so one padding position per sequence is marked real (and an empty sentence has one True)."
NAMED_IF = r"off[- ]by[- ]one|<=|≤|one (extra|too many)|strict|empty"
CODE = '''
def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    lengths = np.asarray(lengths)
    return np.arange(Lk)[None, :] <= lengths[:, None]
'''
