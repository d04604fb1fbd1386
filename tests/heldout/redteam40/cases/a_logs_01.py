# A student id carrying an OSC 8 hyperlink escape: it must never reach the log, progress or CSV raw.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA1",
        "student": "rtlA1\x1b]8;;https://example.invalid/\x07click\x1b]8;;\x07",
        "raw": ["\x1b]8;;https://example.invalid/"], "any_control": True}
