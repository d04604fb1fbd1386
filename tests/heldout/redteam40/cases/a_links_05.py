# A helper module (an ordinary file) imports the solution through a hard link kept in a subfolder.
CASE = {"cls": "links", "kind": "course",
        "links": {"data/ref.json": "solutions/01_weighted_averages/01_weighted_averages.ipynb"},
        "files": {"myhelpers.py": r'''
import json, os
import numpy as np
import attnlab
_ns = {"np": np, "attnlab": attnlab}
for _c in json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ref.json")))["cells"]:
    if (_c.get("metadata", {}).get("nbgrader") or {}).get("grade_id") in ("softmax", "mix_tokens"):
        exec("".join(_c["source"]), _ns)
softmax = _ns["softmax"]
'''},
        "target_cells": ["test_softmax", "test_softmax_stable"],
        "replace": {"softmax": "from myhelpers import softmax\n"}}
