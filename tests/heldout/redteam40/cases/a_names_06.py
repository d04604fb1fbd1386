# The exercise raises a learner class named like the checks' "does not apply here" marker on every case.
CASE = {"cls": "names", "kind": "inproc", "target": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
NotApplicable = type("NotApplicable", (Exception,), {})
def softmax(x, axis=-1):
    raise NotApplicable("skip me")
'''}}
