NOTEBOOK = '08_efficient_attention'
CELL = 'online_softmax_update'
MISTAKE = "Exponentiates the tile's scores relative to the tile's own max instead of the new running max m', so when the running max is larger the tile's terms are too large."
NAMED_IF = r"tile'?s own (max|maximum)|tile.{0,30}(max|maximum).{0,30}(instead|not the new)|new (running )?max.{0,40}tile|tile.{0,40}new (running )?max|relative to the new"
CODE = '''def online_softmax_update(m, l, acc, scores, V_tile):
    m, l, acc = torch.as_tensor(m), torch.as_tensor(l), torch.as_tensor(acc)
    s, V = torch.as_tensor(scores), torch.as_tensor(V_tile)
    tile_max = s.max(dim=-1).values
    m_new = torch.maximum(m, tile_max)
    safe = lambda x: torch.where(torch.isfinite(x), x, torch.zeros_like(x))
    scale = torch.exp(m - safe(m_new))
    p = torch.exp(s - safe(tile_max)[..., None])
    l_new = scale * l + p.sum(-1)
    acc_new = scale[..., None] * acc + p @ V
    return m_new.numpy(), l_new.numpy(), acc_new.numpy()
'''
