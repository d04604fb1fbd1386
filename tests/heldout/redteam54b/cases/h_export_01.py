# Honest: ids with an emoji, Devanagari with combining marks, Hangul and a hyphenated surname must each get their row in the exports.
L = [{'student': 'rt54b😀x'}, {'student': 'rt54bनमस्ते'}, {'student': 'rt54b한글'}, {'student': "rt54b-o'brien-smith"}]
CASE = {"cls": "export", "kind": "batch", "honest": True, "classmates": 2, "learners": L, "must_show": [d["student"] for d in L]}
