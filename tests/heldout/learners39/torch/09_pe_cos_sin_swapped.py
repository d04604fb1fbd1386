NOTEBOOK = '09_transformer'
CELL = 'sinusoidal_positional_encoding'
MISTAKE = 'Puts the cosine in the even columns and the sine in the odd columns (sin/cos order swapped).'
NAMED_IF = r"swap|cos(ine)?.{0,30}(even|first|column 0|before)|(even|first|column 0).{0,30}cos|order of (the )?sin|sin.{0,10}cos.{0,20}(revers|order)"
CODE = '''def sinusoidal_positional_encoding(L, D):
    pos = torch.arange(L, dtype=torch.float64).unsqueeze(1)                  # (L, 1)
    div = torch.pow(10000.0, -torch.arange(0, D, 2, dtype=torch.float64) / D)  # (ceil(D/2),)
    angles = pos * div                                                        # (L, ceil(D/2))
    pe = torch.zeros(L, D, dtype=torch.float64)
    pe[:, 0::2] = torch.cos(angles)
    pe[:, 1::2] = torch.sin(angles[:, : D // 2])
    return pe.numpy()
'''
