# Honest: a learner cell printing coloured text (ANSI) in its own output, and a helper data file beside the notebook.
CASE = {"cls": "logs", "kind": "course", "honest": True, "token": "rtlH2",
        "student": "rtlH2",
        "files": {"notes.txt": "my notes\n"},
        "cell": "print('\\x1b[32mall good\\x1b[0m')\nopen('notes.txt').read()\n"}
