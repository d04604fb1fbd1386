NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'padding_mask'
MISTAKE = 'Computes the mask with torch and returns it with .tolist(), a nested Python list instead of a boolean numpy array.'
NAMED_IF = r"\blist\b|ndarray|numpy|array|type"
CODE = '''def padding_mask(lengths, Lk):
    lengths = torch.as_tensor(lengths)
    return (torch.arange(Lk)[None, :] < lengths[:, None]).tolist()
'''
