# A fresh copy of the reference's module, loaded from its file under another name.
CASE = {"cls": "borrow", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import importlib.util
_spec = importlib.util.spec_from_file_location("attnlab.my_own_averages", attnlab.averages.__file__)
_mine = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mine)
def softmax(x, axis=-1):
    return _mine.softmax(x, axis=axis)
'''}}
