# A C1 control (NEL, U+0085) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54nel\x85x', "token": 'rt54nel', "raw_chars": ['\x85']}
