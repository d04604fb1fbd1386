# DEL and a vertical tab in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54del\x7fx\x0by', "token": 'rt54del', "raw_chars": ['\x7f', '\x0b']}
