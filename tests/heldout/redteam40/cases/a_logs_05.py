# A student id with a right-to-left override that reverses how the rest of the line is displayed.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA5",
        "student": "rtlA5\u202e21/0 dedarg\u202c",
        "raw": ["\u202e21/0"], "any_control": True}
