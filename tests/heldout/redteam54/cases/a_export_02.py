# A right-to-left override (U+202E) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54rlo\u202egpj.exe', "token": 'rt54rlo', "raw_chars": ['\u202e']}
