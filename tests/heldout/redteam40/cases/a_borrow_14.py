# C calling C: the reference reached through itertools.starmap and consumed by next().
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import itertools, operator
_f = operator.attrgetter("softmax")(__import__("attnlab.averages").averages)
def softmax(x, axis=-1):
    return next(itertools.starmap(_f, [(np.asarray(x, dtype=float), axis)]))
'''}}
