# An unassigned code point and a noncharacter in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": "rt54bu\u0378\uffffz", "token": "rt54bu", "raw_chars": ["\u0378", "\uffff"]}
