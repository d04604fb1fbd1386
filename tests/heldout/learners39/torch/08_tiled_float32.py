NOTEBOOK = '08_efficient_attention'
CELL = 'tiled_attention'
MISTAKE = "Converts Q, K, V to float32 torch tensors (torch's default dtype) and computes in single precision, so the result is float32 and misses the 1e-10 tolerance."
NAMED_IF = r"float32|float64|precision|dtype|single|double"
CODE = '''def tiled_attention(Q, K, V, tile_size, causal=False):
    Q, K, V = (torch.as_tensor(x, dtype=torch.float32) for x in (Q, K, V))
    Lq, Dk = Q.shape[-2], Q.shape[-1]
    Lk, Dv = K.shape[-2], V.shape[-1]
    batch = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = torch.zeros(*batch, Lq, Dv)
    lse = torch.zeros(*batch, Lq)
    scale = Dk ** -0.5
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        q = Q[..., i0:i1, :]
        m = torch.full((*batch, i1 - i0), float("-inf"))
        l = torch.zeros(*batch, i1 - i0)
        acc = torch.zeros(*batch, i1 - i0, Dv)
        j_end = min(Lk, i1) if causal else Lk
        for j0 in range(0, j_end, tile_size):
            j1 = min(j0 + tile_size, Lk)
            s = q @ K[..., j0:j1, :].transpose(-1, -2) * scale
            if causal and j1 - 1 > i0:
                keep = torch.arange(j0, j1)[None, :] <= torch.arange(i0, i1)[:, None]
                s = s.masked_fill(~keep, float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            m_safe = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
            r = torch.exp(m - m_safe)
            p = torch.exp(s - m_safe[..., None])
            l = r * l + p.sum(-1)
            acc = r[..., None] * acc + p @ V[..., j0:j1, :]
            m = m_new
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1] = m + torch.log(l)
    return out.numpy(), lse.numpy()
'''
FAIR = "COURSE.md Fair checks names float32 a fair route and Types allows numpy arrays of float64 or float32, and this otherwise exact tiled algorithm returns numpy arrays that differ from the reference only by float32 rounding."
