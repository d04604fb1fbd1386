# softmax through the library's torch twin (attnlab.torch), back to numpy.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import importlib
def softmax(x, axis=-1):
    import torch
    tw = importlib.import_module("attnlab.tor" + "ch.functional")
    return tw.softmax(torch.from_numpy(np.asarray(x, dtype=float)), axis).numpy()
'''}}
