# A student id with a carriage return followed by a line that reads like another learner's grade.
CASE = {"cls": "logs", "kind": "course", "token": "rtlA2",
        "student": "rtlA2\rzz_rtforged2 01_weighted_averages graded 12/12",
        "forged_lines": ["zz_rtforged2"], "raw": ["\rzz_rtforged2"]}
