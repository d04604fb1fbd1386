# Untiled attention, plain (the control: the memory check must take its point).
CASE = {"cls": "probe", "kind": "inproc", "assignment": "08_efficient_attention",
        "target": ["test_tiled_attention_memory"],
        "replace": {"tiled_attention": r'''
def tiled_attention(Q, K, V, tile_size, causal=False):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if causal:
        S = np.where(np.arange(S.shape[-1])[None, :] <= np.arange(S.shape[-2])[:, None], S, -np.inf)
    m = S.max(-1, keepdims=True); E = np.exp(S - m); l = E.sum(-1)
    return (E @ V) / l[..., None], m[..., 0] + np.log(l)
'''}}
