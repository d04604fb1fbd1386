# A student id that reads as a command-line option.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": "--rt54b-output=x", "token": "rt54b-output"}
