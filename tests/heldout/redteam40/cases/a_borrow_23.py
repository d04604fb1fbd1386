# torch's C-level tensor method reached by a computed attribute name, called on a tensor view of the input.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    t = torch.from_numpy(np.asarray(x, dtype=float))
    op = getattr(torch.ops.aten, "_" + "soft" + "max")
    return op(t, axis % max(t.dim(), 1), False).numpy() if t.dim() else np.ones_like(np.asarray(x, dtype=float))
'''}}
