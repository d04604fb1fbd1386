# Honest: ids with accents, CJK, a comma, quotes and a space must each get their row in the exports.
L = [{"student": "rt54José"}, {"student": "rt54李雷"}, {"student": "rt54lee, anna"}, {"student": "rt54o'neil \"jr\""}]
CASE = {"cls": "export", "kind": "batch", "honest": True, "classmates": 2, "learners": L, "must_show": ["rt54José", "rt54李雷", "rt54lee, anna"]}
