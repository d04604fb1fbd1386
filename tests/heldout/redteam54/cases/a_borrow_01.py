# softmax through a torch.jit.script helper around torch.softmax.
B = 'import torch\n@torch.jit.script\ndef _norm_rows(t: torch.Tensor, d: int) -> torch.Tensor:\n    return torch.softmax(t, d)\ndef softmax(x, axis=-1):\n    return _norm_rows(torch.as_tensor(np.asarray(x, dtype=float)), axis).numpy()\n'
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"softmax": B}, "target": ["test_softmax", "test_softmax_stable"]}
