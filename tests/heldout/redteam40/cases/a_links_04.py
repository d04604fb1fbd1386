# The notebook is a hard link to a classmate's submitted notebook (the classmate's own row is not judged).
CASE = {"cls": "links", "kind": "course", "classmate": True, "scores": True}
