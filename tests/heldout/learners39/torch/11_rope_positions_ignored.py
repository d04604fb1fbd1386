NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Ignores the positions argument and rotates row l by l * theta_k (torch.arange(L)), which is only right when positions are 0..L-1.'
NAMED_IF = r"ignor|arange|0 ?\.\.\.? ?L ?- ?1|row index|index of the row|given positions|positions argument|not the positions"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = torch.as_tensor(x)
    L, Dh = x.shape[-2], x.shape[-1]
    if Dh % 2 != 0:
        raise ValueError(f"x has an odd last axis Dh = {Dh}")
    inv_freq = 1.0 / (base ** (torch.arange(0, Dh, 2, dtype=torch.float64) / Dh))
    t = torch.arange(L, dtype=torch.float64)
    freqs = torch.outer(t, inv_freq)                 # (L, Dh/2)
    cos, sin = freqs.cos(), freqs.sin()
    if interleaved:
        x1, x2 = x[..., 0::2], x[..., 1::2]
    else:
        x1, x2 = x[..., : Dh // 2], x[..., Dh // 2 :]
    r1 = x1 * cos - x2 * sin
    r2 = x1 * sin + x2 * cos
    out = torch.empty_like(x)
    if interleaved:
        out[..., 0::2], out[..., 1::2] = r1, r2
    else:
        out[..., : Dh // 2], out[..., Dh // 2 :] = r1, r2
    return out.numpy()
'''
