# An ANSI escape sequence (ESC) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54esc\x1b[2Jx', "token": 'rt54esc', "raw_chars": ['\x1b']}
