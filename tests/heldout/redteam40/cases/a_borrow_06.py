# softmax as softmin of the negated scores (torch.nn.functional.softmin).
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    import torch.nn.functional as F
    return F.softmin(-torch.from_numpy(np.asarray(x, dtype=float)), dim=axis).numpy()
'''}}
