# Honest: a student id with letters from other scripts and a space (must grade normally, full marks).
CASE = {"cls": "logs", "kind": "course", "honest": True, "token": "rtlH1",
        "student": "rtlH1 zoë 山田-Øster"}
