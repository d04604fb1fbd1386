NOTEBOOK = '11_modern_attention'
CELL = 'sliding_window_mask'
MISTAKE = 'Builds the band with torch tril/triu on an int tensor and returns 0/1 integers instead of a boolean mask.'
NAMED_IF = r"bool|dtype|\bint|0/1|integer"
CODE = '''def sliding_window_mask(Lq, Lk, window, offset=0):
    band = torch.ones(Lq, Lk, dtype=torch.int64)
    band = torch.tril(band, diagonal=offset)
    band = torch.triu(band, diagonal=offset - window + 1)
    return band.numpy()
'''
