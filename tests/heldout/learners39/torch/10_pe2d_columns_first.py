NOTEBOOK = '10_attention_on_images'
CELL = 'positional_encoding_2d'
MISTAKE = "Concatenates the column's encoding first and the row's second, instead of the row's half then the column's."
NAMED_IF = r"column.{0,40}(first|then|before).{0,40}row|row.{0,30}(second|after)|order of the (two )?halves|halves.{0,30}(swapped|order|revers)|swap"
CODE = '''def positional_encoding_2d(H, W, D):
    if D % 4 != 0:
        raise ValueError(f"D must be a multiple of 4, got {D}")
    row_pe = torch.from_numpy(attnlab.sinusoidal_positional_encoding(H, D // 2))   # (H, D/2)
    col_pe = torch.from_numpy(attnlab.sinusoidal_positional_encoding(W, D // 2))   # (W, D/2)
    rows = row_pe.repeat_interleave(W, dim=0)                                       # (H*W, D/2)
    cols = col_pe.repeat(H, 1)                                                      # (H*W, D/2)
    return torch.cat([cols, rows], dim=-1).numpy()
'''
