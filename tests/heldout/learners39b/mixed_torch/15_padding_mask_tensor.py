NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Builds the right mask with torch and returns a torch bool tensor instead of a numpy bool array.'
NAMED_IF = 'tensor|torch|numpy|np\\.ndarray|ndarray|type'
CODE = '''\
def padding_mask(lengths, Lk):
    """Padding mask: True on the real (unpadded) tokens of each sequence."""
    lengths = torch.as_tensor(lengths)
    return torch.arange(Lk)[None, :] < lengths[:, None]     # (B, Lk)
'''
