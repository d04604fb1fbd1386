NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Uses the tensor2tensor layout: all the sines in the first half of the columns and all the cosines in the second half, instead of interleaving sin/cos in columns 2i and 2i+1.'
NAMED_IF = r"half|halves|interleav|concatenat|split|first D/2|2i ?\+ ?1"
CODE = '''def sinusoidal_positional_encoding(L, D):
    n = (D + 1) // 2
    pos = torch.arange(L, dtype=torch.float64)[:, None]
    freqs = 10000.0 ** (-torch.arange(0, D, 2, dtype=torch.float64) / D)
    ang = pos * freqs[None, :]
    pe = torch.cat([torch.sin(ang), torch.cos(ang[:, : D - n])], dim=1)
    return pe.numpy()
'''
