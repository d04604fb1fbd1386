# A fresh copy of the reference's module loaded under a package-relative name, its function fetched by a
# computed name.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import importlib.util
_spec = importlib.util.spec_from_file_location("attnlab.rt_copy", attnlab.averages.__file__)
_m = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_m)
_f = getattr(_m, "soft" + "max")
def softmax(x, axis=-1):
    return _f(x, axis=axis)
'''}}
