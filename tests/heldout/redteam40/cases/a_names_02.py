# A learner class shadowing NotImplementedError, carrying its input's digest in the message.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "target": ["test_softmax"],
        "replace": {"softmax": r'''
import hashlib
class NotImplementedError(Exception):
    pass
def softmax(x, axis=-1):
    x = np.asarray(x)
    raise NotImplementedError("H" + hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16])
'''}}
