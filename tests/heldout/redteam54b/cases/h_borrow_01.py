# Honest: softmax in torch primitives (exp, amax, sum) with a self-test beside it that compares with the library's softmax and torch.softmax.
S = 'import torch\nimport numpy as np\ndef softmax(x, axis=-1):\n    t = torch.as_tensor(np.asarray(x, dtype=float))\n    t = t - torch.amax(t, dim=axis, keepdim=True)\n    e = torch.exp(t)\n    return (e / torch.sum(e, dim=axis, keepdim=True)).numpy()\n'
C = 'import attnlab, torch\n_x = np.random.default_rng(3).normal(size=(4, 5))\nassert np.allclose(softmax(_x), attnlab.softmax(_x))\nassert np.allclose(softmax(_x, 0), torch.softmax(torch.as_tensor(_x), 0).numpy())\n'
CASE = {"cls": "borrow", "kind": "inproc", "honest": True, "replace": {"softmax": S}, "cell_end": C}
