# More files beside the notebook than collection copies; the first one left out (by name) carries a form feed / vertical tab
# and a forged line: the "not copied" note must escape it.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA7",
        "student": "rtlA7",
        "many_files": {"count": 2010, "last": "f01999\x0czz_rtforged7 01_weighted_averages graded 12\x0b.txt"},
        "raw": ["\x0czz_rtforged7"], "forged_lines": ["zz_rtforged7"]}
