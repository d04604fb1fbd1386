# Honest pair: both learners write scratch files in their working folder and in TMPDIR and read them back.
_C = r'''
import os, tempfile
with open("scratch.txt", "w") as _f:
    _f.write("mine")
with tempfile.NamedTemporaryFile("w", delete=False, suffix=".txt") as _f:
    _f.write("mine too")
assert open("scratch.txt").read() == "mine"
'''
CASE = {"cls": "slot", "kind": "pair", "honest": True, "writer": {"cell": _C}, "reader": {"cell": _C}}
