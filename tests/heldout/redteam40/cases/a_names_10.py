# The exercise writes its input's digest straight to file descriptors 1 and 2 (around any Python-level
# redirection) during the grader's calls: nothing of a hidden call may reach the row, the feedback or the cell log.
CASE = {"cls": "names", "kind": "inproc", "leak": True, "leak_log": True,
        "replace": {"softmax": r'''
import hashlib, os
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    tag = "H" + hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16] + "\n"
    for fd in (1, 2):
        try:
            os.write(fd, tag.encode())
        except OSError:
            pass
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)
'''}}
