# A line separator (U+2028) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54lsep\u2028x', "token": 'rt54lse', "raw_chars": ['\u2028']}
