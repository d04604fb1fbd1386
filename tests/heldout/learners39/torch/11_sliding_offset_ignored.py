NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Ignores the offset: query row i is treated as position i instead of i + offset.'
NAMED_IF = r"offset|i ?\+ ?offset|absolute position"
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    i = torch.arange(Lq)[:, None]
    j = torch.arange(Lk)[None, :]
    diff = i - j
    return ((diff >= 0) & (diff < window)).numpy()
'''
