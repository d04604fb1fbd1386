NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = 'Takes the RoFormer/GPT-J interleaved pairs (2k, 2k+1) as the default and the halves when interleaved=True: the two pairings are swapped.'
NAMED_IF = r"interleav|halves|pair(s|ing)|\(2k, ?2k ?\+ ?1\)|k ?\+ ?Dh ?/ ?2"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    x = torch.as_tensor(x)
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: the last axis (Dh = {Dh}) must be even")
    theta = base ** (-torch.arange(0, Dh, 2, dtype=torch.float64) / Dh)          # (Dh/2,)
    ang = torch.as_tensor(positions, dtype=torch.float64)[:, None] * theta[None, :]   # (L, Dh/2)
    cos, sin = torch.cos(ang), torch.sin(ang)
    out = torch.empty_like(x)
    if not interleaved:   # RoFormer pairs (2k, 2k+1)
        a, b = x[..., 0::2], x[..., 1::2]
        out[..., 0::2] = a * cos - b * sin
        out[..., 1::2] = a * sin + b * cos
    else:
        a, b = x[..., : Dh // 2], x[..., Dh // 2 :]
        out[..., : Dh // 2] = a * cos - b * sin
        out[..., Dh // 2 :] = a * sin + b * cos
    return out.numpy()
'''
