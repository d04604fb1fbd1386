# softmax from torch's Python reference implementations (torch._refs) rather than the operator.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    import torch._refs as refs
    return refs.softmax(torch.from_numpy(np.asarray(x, dtype=float)), axis).numpy()
'''}}
