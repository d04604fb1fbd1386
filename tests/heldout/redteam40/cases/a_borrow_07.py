# softmax through the C base class's method (torch._C.TensorBase.softmax), not torch.softmax/Tensor.softmax.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    base = getattr(torch._C, "TensorBase", None) or getattr(torch._C, "_TensorBase")
    return base.softmax(torch.from_numpy(np.asarray(x, dtype=float)), axis).numpy()
'''}}
