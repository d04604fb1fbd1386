# A student id made of a NEL (U+0085) and a forged line: a line break for Python's splitlines and for
# many log viewers.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA9",
        "student": "rtlA9\x85zz_rtforged9 01_weighted_averages graded 12/12",
        "forged_lines": ["zz_rtforged9"], "raw": ["\x85zz_rtforged9"]}
