# A symbolic link beside the notebook whose *name* carries an escape sequence and a forged line: collection
# names what it refused, and that name must be escaped wherever it is shown.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA6",
        "student": "rtlA6",
        "symlinks": {"data\x1b[2K\x1b[1Gzz_rtforged6 graded 12\n": "/etc/hostname"},
        "raw": ["\x1b[2K\x1b[1Gzz_rtforged6"], "forged_lines": ["zz_rtforged6"]}
