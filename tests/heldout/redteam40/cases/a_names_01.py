# A learner exception whose class is named and placed like a check's own memory verdict (module spoofed),
# raised with a digest of its input: the digest must not reach the CSV row or the feedback on hidden tests.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "target": ["test_softmax"],
        "replace": {"softmax": r'''
import hashlib
_E = type("TooMuchMemory", (Exception,), {"__module__": "attnlab.checks.efficient_attention",
                                           "__qualname__": "TooMuchMemory"})
def softmax(x, axis=-1):
    x = np.asarray(x)
    raise _E("H" + hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16] + " shape " + str(x.shape))
'''}}
