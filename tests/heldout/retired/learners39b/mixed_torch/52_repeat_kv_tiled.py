NOTEBOOK = '11_modern_attention'
CELL = 'repeat_kv'
MISTAKE = "Uses torch's Tensor.repeat along the head axis, which tiles the heads (0, 1, 0, 1, ...) so query head h reads key/value head h % Hkv instead of h // n_rep (repeat_interleave)."
NAMED_IF = 'tile|tiling|interleav|h ?% ?hkv|modulo|repeat_interleave|in a row|cycl|order|h ?// ?n_rep|which (kv|key) head'
CODE = '''\
def repeat_kv(X, n_rep):
    """Repeat each key/value head n_rep times in a row."""
    Xt = torch.as_tensor(X)
    return Xt.repeat(1, n_rep, 1, 1).numpy()       # (B, Hkv * n_rep, L, D)
'''
