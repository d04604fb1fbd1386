"""Issue 40's held-out red team: 77 attacks on the grading boundary in seven classes (a name or
status the learner chose; ids and strings forging log, progress or CSV lines; one learner reaching
the next in a warm slot; notebook 08's memory probe told apart from the run; borrowed answers
through library routes; hard links to course files; the hosted graders), and 15 honest look-alikes
of them, written against the code by a red team whose cases the fixer did not read. Its figures
were measured before the fix (7 attacks through, 13 of 15 honest kept) and after (0 through, 15
kept); this test keeps them there. It prints only the figures
(``tests/heldout/redteam40/figures.py``).

An attack is *through* when it scored more than its case allows or got out what it must not
(the hidden inputs, the course secret, a forged line or file); an honest submission is *kept*
when it keeps full marks through ``grade``, the shards and both hosted engines.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("heldout-redteam")]

HERE = Path(__file__).resolve().parent / "heldout" / "redteam40"
CLASSES = ("names", "logs", "slot", "probe", "borrow", "links", "hosted")


def _figures() -> dict[str, list[int]]:
    out = subprocess.run([sys.executable, str(HERE / "figures.py"), "-j", "2"], capture_output=True, text=True,
                         timeout=1800, cwd=HERE.parents[2])
    print(out.stdout)
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    rows = {}
    for line in out.stdout.splitlines():
        m = re.match(r"(\w+)\s+" + r"\s+".join([r"(\d+)"] * 4) + r"\s*\|\s*" + r"\s+".join([r"(\d+)"] * 4), line)
        if m:
            rows[m.group(1)] = [int(x) for x in m.groups()[1:]]
    return rows


def test_the_red_teams_attacks_stay_out_and_honest_work_keeps_full_marks():
    rows = _figures()
    assert set(CLASSES) <= set(rows), rows   # every class ran (a class missing is not a pass)
    attacks, blocked, through, errors, honest, kept, lost, honest_errors = rows["total"]
    assert attacks >= 77 and honest >= 15, rows
    assert through == 0, {c: rows[c] for c in CLASSES if rows[c][2]}
    assert errors == 0 and honest_errors == 0, rows   # a case the runner could not judge hides a verdict
    assert kept == honest and lost == 0, {c: rows[c] for c in CLASSES if rows[c][6]}
