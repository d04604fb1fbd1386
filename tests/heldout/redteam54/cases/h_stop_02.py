# Honest: unicode letters and a space in the student id, graded cold, an optional import in try/except.
CASE = {"cls": "stop", "kind": "batch", "honest": True, "cold": True, "student": "rt54 José Ñandú", "token": "rt54 José Ñandú",
        "cell": "try:\n    from polars import DataFrame\nexcept ImportError:\n    DataFrame = None\n"}
