# A lazy answer: an object whose __array_interface__ (a property) runs the library's softmax only when the
# answer is turned into an array, after the call returned.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
class _Later:
    def __init__(self, x, axis):
        self._x, self._axis, self._a = x, axis, None
    @property
    def __array_interface__(self):
        if self._a is None:
            self._a = np.ascontiguousarray(attnlab.softmax(self._x, axis=self._axis))
        return self._a.__array_interface__
    @property
    def shape(self):
        return np.shape(self._x)
def softmax(x, axis=-1):
    return _Later(np.asarray(x, dtype=float), axis)
'''}}
