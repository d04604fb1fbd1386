# A hard link to the solution notebook beside an ordinary submission: softmax is run from its solution cell.
CASE = {"cls": "links", "kind": "course", "links": {"reference.ipynb": "solutions/01_weighted_averages/01_weighted_averages.ipynb"},
        "target_cells": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": r'''
import json
def softmax(x, axis=-1):
    raise NotImplementedError()
try:
    for _c in json.load(open("reference.ipynb"))["cells"]:
        if (_c.get("metadata", {}).get("nbgrader") or {}).get("grade_id") == "softmax":
            exec("".join(_c["source"]), globals())
except Exception:
    pass
'''}}
