# softmax as the probabilities of a torch Categorical distribution built from logits.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
def softmax(x, axis=-1):
    import torch
    t = torch.from_numpy(np.moveaxis(np.asarray(x, dtype=float), axis, -1).copy())
    p = torch.distributions.Categorical(logits=t).probs
    return np.moveaxis(p.numpy(), -1, axis)
'''}}
