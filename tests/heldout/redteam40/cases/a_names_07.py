# The exercise raises a learner class named like the grader's "no answer measured" marker, with a digest.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import hashlib
NotProbed = type("NotProbed", (Exception,), {})
def softmax(x, axis=-1):
    x = np.asarray(x)
    raise NotProbed("H" + hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16])
'''}}
