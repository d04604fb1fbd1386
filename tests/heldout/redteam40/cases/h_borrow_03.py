# Honest: softmax written with torch primitives (amax, exp, sum), converted back to numpy.
CASE = {"cls": "borrow", "kind": "inproc", "honest": True,
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    t = torch.from_numpy(np.asarray(x, dtype=float))
    e = torch.exp(t - torch.amax(t, dim=axis, keepdim=True))
    return (e / torch.sum(e, dim=axis, keepdim=True)).numpy()
'''}}
