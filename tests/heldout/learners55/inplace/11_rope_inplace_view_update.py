NOTEBOOK = '11_modern_attention'
CELL = 'rope'
MISTAKE = "Rotates the two halves in place through views of x: the second member is computed from the already rotated first member, and the caller's x is overwritten."
NAMED_IF = r"in.place|modif(y|ies|ied)|mutat|overwr(ote|ites|itten|iting)|chang(ed|es|ing) (the |its |your |their )?(caller'?s? )?(input|argument|array|tensor|X|scores|values|weights)|caller|(input|argument)s? (was|were|is|are) (changed|altered|modified)|left .{0,20}unchanged|leave .{0,30}unchanged|already rotated|updated (first|a\b)|view|ali|lengths? (not kept|change)|norm"
CODE = '''def rope(x, positions, base=10000.0, interleaved=False):
    Dh = x.shape[-1]
    if Dh % 2:
        raise ValueError(f"x: expected an even last dimension, got shape {x.shape}")
    theta = base ** (-2 * np.arange(Dh // 2) / Dh)
    ang = np.asarray(positions)[:, None] * theta[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]
    else:
        a, b = x[..., :Dh // 2], x[..., Dh // 2:]
    a[...] = a * cos - b * sin
    b[...] = a * sin + b * cos
    return x
'''
