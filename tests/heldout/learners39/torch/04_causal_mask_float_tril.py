NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'causal_mask'
MISTAKE = 'Builds the mask as torch.tril(torch.ones(Lq, Lk)).numpy(): the right pattern but float 0/1 numbers, not dtype=bool.'
NAMED_IF = r"bool|dtype|0/1|float"
CODE = '''def causal_mask(Lq, Lk):
    return torch.tril(torch.ones(Lq, Lk)).numpy()
'''
