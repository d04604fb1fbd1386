# A learner class named TimeoutError (not the builtin) raised by the exercise: the status must not become
# the grader's "timed out", and its message (a digest of the input) must not be shown on hidden tests.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "status_forged": True,
        "replace": {"mix_tokens": r'''
import hashlib
class TimeoutError(Exception):
    pass
def mix_tokens(X):
    X = np.asarray(X)
    raise TimeoutError("H" + hashlib.sha1(np.ascontiguousarray(X).tobytes()).hexdigest()[:16])
'''}}
