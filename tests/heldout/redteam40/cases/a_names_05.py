# A cell raises a class of the learner's own named like the sandbox's own timer exception.
CASE = {"cls": "names", "kind": "inproc", "status_forged": True,
        "cell": r'''
_TimeoutX = type("_TimeoutFromTheLearner", (Exception,), {})
raise _TimeoutX("not a real timeout")
'''}
