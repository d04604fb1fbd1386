# softmax through a torch.jit.trace of F.softmax on the last axis.
B = 'import torch\nimport torch.nn.functional as _F\n_tr = torch.jit.trace(lambda t: _F.softmax(t, -1), torch.zeros(3, 4, dtype=torch.float64))\ndef softmax(x, axis=-1):\n    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)\n    shp = x.shape\n    y = _tr(torch.as_tensor(x.reshape(-1, shp[-1]) if x.ndim != 2 else x)).numpy().reshape(shp)\n    return np.moveaxis(y, -1, axis)\n'
CASE = {"cls": "borrow", "kind": "inproc", "replace": {"softmax": B}, "target": ["test_softmax", "test_softmax_stable"]}
