# A cell raises a class of the learner's own whose name contains MemoryError: the status must stay the
# learner's (not the grader's "out of memory").
CASE = {"cls": "names", "kind": "inproc", "status_forged": True,
        "cell": r'''
class NotReallyAMemoryErrorAtAll(Exception):
    pass
raise NotReallyAMemoryErrorAtAll("just a learner exception")
'''}
