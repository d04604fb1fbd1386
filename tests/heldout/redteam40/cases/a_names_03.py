# An exception that duck-types the grader's outcome record (error/message attributes, a grader-ish class name).
CASE = {"cls": "names", "kind": "inproc", "leak": True, "target": ["test_softmax"],
        "replace": {"softmax": r'''
import hashlib
class GraderOutcome(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.error = "MemoryNotMeasured"
        self.message = msg
        self.grader_made = True
def softmax(x, axis=-1):
    x = np.asarray(x)
    raise GraderOutcome("H" + hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16])
'''}}
