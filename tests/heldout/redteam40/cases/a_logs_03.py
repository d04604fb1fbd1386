# A student id with U+2028 (a line separator for every reader that splits lines the Unicode way).
CASE = {"cls": "logs", "kind": "course", "token": "rtlA3",
        "student": "rtlA3\u2028zz_rtforged3 01_weighted_averages graded 12/12",
        "forged_lines": ["zz_rtforged3"], "raw": ["\u2028zz_rtforged3"]}
