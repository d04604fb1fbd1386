# A tab inside the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54tab\tx', "token": 'rt54tab', "raw_chars": ['\t']}
