# softmax through torch.compile (eager backend) of torch.softmax.
B = "import torch\n_c = torch.compile(lambda t, d: torch.softmax(t, d), backend='eager')\ndef softmax(x, axis=-1):\n    return _c(torch.as_tensor(np.asarray(x, dtype=float)), axis).numpy()\n"
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"softmax": B}, "target": ["test_softmax", "test_softmax_stable"]}
