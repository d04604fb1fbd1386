# Unicode tag characters (invisible, astral format characters) in the student id.
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": "rt54bt\U000e0041\U000e0042\U000e007f", "token": "rt54bt", "raw_chars": ["\U000e0041", "\U000e007f"]}
