# No-break and ideographic spaces in a student id shaped like Canvas's own row.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": "Points\u00a0Possible\u3000rt54bp", "token": "rt54bp", "raw_chars": ["\u00a0", "\u3000"]}
