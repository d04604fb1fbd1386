# A learner cell that tampers with the library under an attribute name holding an escape sequence and a
# forged line: whatever the grader says about the tampering must not carry the name raw.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA8",
        "student": "rtlA8",
        "cell": "import attnlab\nsetattr(attnlab, 'softmax\\x1b[2K\\rzz_rtforged8 graded 12', attnlab.softmax)\n"
                "attnlab.softmax = (lambda f: (lambda x, axis=-1: f(x, axis=axis)))(attnlab.softmax)\n",
        "raw": ["\x1b[2K\rzz_rtforged8"], "forged_lines": ["zz_rtforged8"]}
