# Bidi isolates (U+2066..U+2069) and a right-to-left mark in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54iso\u2067x\u2069\u200fy', "token": 'rt54iso', "raw_chars": ['\u2067', '\u2069', '\u200f']}
