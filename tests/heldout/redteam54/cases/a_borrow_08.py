# mix_tokens through scaled_dot_product_attention inside a torch.jit.script helper.
B = 'import torch\n@torch.jit.script\ndef _mix(t: torch.Tensor) -> torch.Tensor:\n    s = t * (t.shape[-1] ** 0.25)\n    return torch.nn.functional.scaled_dot_product_attention(s, s, t)\ndef mix_tokens(X):\n    return _mix(torch.as_tensor(np.asarray(X, dtype=float))).numpy()\n'
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"mix_tokens": B}, "target": ["test_mix_tokens", "test_mix_tokens_batched"]}
