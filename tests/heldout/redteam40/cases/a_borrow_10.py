# mix_tokens through torch's C-level SDPA binding (torch._C._nn), scale 1.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_mix_tokens", "test_mix_tokens_batched"],
        "replace": {"mix_tokens": r'''
def mix_tokens(X):
    import torch
    t = torch.from_numpy(np.asarray(X, dtype=float))
    return torch._C._nn.scaled_dot_product_attention(t, t, t, scale=1.0).numpy()
'''}}
