# A zero-width no-break space and a pop-directional (U+202C) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": 'rt54pdf\u202cx\ufeffy', "token": 'rt54pdf', "raw_chars": ['\u202c', '\ufeff']}
