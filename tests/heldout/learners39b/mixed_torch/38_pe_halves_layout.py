NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Uses the other layout (as in some libraries): all the sines in the first half of the columns and all the cosines in the second half, instead of sine in column 2i and cosine in column 2i+1.'
NAMED_IF = 'interleav|halves|half|first half|concat|pairing|layout|column (order|layout)|2i ?\\+ ?1|even.{0,30}odd|odd.{0,30}even|permut'
CODE = '''\
def sinusoidal_positional_encoding(L, D):
    """The sinusoidal positional encodings of positions 0 .. L-1."""
    import torch
    n_sin = (D + 1) // 2
    position = torch.arange(L, dtype=torch.float64)[:, None]                          # (L, 1)
    div = torch.exp(torch.arange(0, D, 2, dtype=torch.float64) * (-np.log(10000.0) / D))   # (ceil(D/2),)
    angles = position * div                                                           # (L, ceil(D/2))
    pe = torch.cat([torch.sin(angles), torch.cos(angles[:, :D - n_sin])], dim=-1)     # (L, D)
    return pe.numpy()
'''
