# A CheckRaised-style name from another notebook's checks (a module the check could not use), with a digest.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "target": ["test_mix_tokens", "test_mix_tokens_batched"],
        "replace": {"mix_tokens": r'''
import hashlib
DropoutActive = type("DropoutActive", (Exception,), {"__module__": "attnlab.checks._core"})
def mix_tokens(X):
    X = np.asarray(X)
    raise DropoutActive("H" + hashlib.sha1(np.ascontiguousarray(X).tobytes()).hexdigest()[:16])
'''}}
