# Four hostile ids in one batch: a carriage return, a one-byte CSI, a zero-width space and a leading byte-order mark.
L = [{'student': 'rt54bm1\rx'}, {'student': 'rt54bm2\x9b31m'}, {'student': 'rt54bm3\u200bq'}, {'student': '\ufeffrt54bm4'}]
CASE = {"cls": "export", "kind": "batch", "classmates": 2, "learners": [dict(d, token=d["student"][:7] if not d["student"].startswith("\ufeff") else "rt54bm4") for d in L], "raw_chars": ["\r", "\x9b", "\u200b", "\ufeff"]}
