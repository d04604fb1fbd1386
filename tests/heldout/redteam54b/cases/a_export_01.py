# A student folder whose name holds bytes that are not UTF-8 (lone surrogates once decoded).
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "student": b"rt54bx\xff\xfey", "token": "rt54bx", "raw_chars": ["\udcff", "\udcfe"]}
