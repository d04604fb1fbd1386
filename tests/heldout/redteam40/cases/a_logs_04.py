# A student id with an 8-bit C1 control sequence introducer (CSI as one code point) that erases the line.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA4",
        "student": "rtlA4\x9b2K\x9b1Azz_rtforged4",
        "raw": ["\x9b2K"], "any_control": True}
