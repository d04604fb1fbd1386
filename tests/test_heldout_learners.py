"""Issue 39's held-out learners: wrong versions of notebooks 01-12 written by blind learners of
three styles (loops and fixed-rank code; torch reached for in numpy exercises; careful, subtle
slips) who never saw ``solutions/`` nor the checks. Their figures were measured before the checks
changed and after; this test keeps them from falling. It prints only the figures
(``tests/heldout/learners39/figures.py``, also ``tools/diagnosis_figures.py --held-out``).

A case is *named* when a failing cell's message matches what the learner wrote beforehand that
a naming message must say, *misleading* when the message names some other known mistake,
*accepted* when every cell passed (*fair* when a reviewer found that docs/contract.md calls the route
fair: float32, an integer dtype of another width, ...).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "heldout" / "learners39"

# The figures when this test was written (after the fix); a change to the checks may raise them,
# never lower them.
AT_LEAST_NAMED = 0.95  # 167 of 170 judged (98%) on 1c5b60c and after; 157 (92%) before. Three cases of
# repeat_kv and two of previous_token_score, which left the course in issue 41, are in
# tests/heldout/retired/ (169 cases here since).
# (The last accepted case, notebook 03's append_ones keeping an int input's dtype, is fair: its
# prompt gives no dtype, docs/contract.md asks floats only where the prompt says so, and a real-world
# correct implementation does the same; it is marked FAIR.)
AT_MOST = {"accepted": 0, "misleading": 0, "raw": 0}


def _figures(here: Path = HERE) -> dict[str, int]:
    out = subprocess.run([sys.executable, str(HERE / "figures.py"), "-j", "2", "--cases", str(here)], capture_output=True,
                         text=True, timeout=1500, cwd=HERE.parents[2])
    assert out.returncode == 0, out.stdout + out.stderr
    line = next(l for l in out.stdout.splitlines() if l.startswith("ALL"))
    print(out.stdout)
    figures: dict[str, int] = {}
    for k, v in re.findall(r"(named|misleading|unnamed|raw|accepted|fair)\s+(\d+)(?!%)", line):
        figures.setdefault(k, int(v))  # (the line ends with the share named, "named 91%")
    figures["cases"] = int(line.split()[1])
    return figures


def _round_holds(folder: Path, min_judged: int, at_least_named: float, at_most: dict[str, int]) -> None:
    """One round's figures: enough judged cases, the share named, and no more of each bad kind."""
    f = _figures(folder)
    judged = f["cases"] - f.get("fair", 0)
    assert judged >= min_judged, f
    assert f["named"] / judged >= at_least_named, f
    for kind, most in at_most.items():
        assert f[kind] <= most, (kind, f)


@pytest.mark.notebooks
def test_the_held_out_learners_figures_do_not_fall():
    _round_holds(HERE, 100, AT_LEAST_NAMED, AT_MOST)


# A second round (this session's fresh blind learner, 59 wrong versions of 01-12 in three styles,
# written after the cards and before the generated edits were measured): its figures on the code
# it was written against (6d30d8d) were 53 named (90%), 3 misleading, 3 unnamed, 0 accepted.
SECOND = Path(__file__).resolve().parent / "heldout" / "learners39b"
# After the classes its misleading and unnamed verdicts stood for were fixed: 59 of 59 named (57 since
# a case of repeat_kv and one of previous_token_score were retired with their exercises:
# tests/heldout/retired/).
SECOND_AT_LEAST_NAMED = 0.95
SECOND_AT_MOST = {"accepted": 0, "misleading": 0, "raw": 0}


@pytest.mark.notebooks
def test_the_second_round_figures_do_not_fall():
    _round_holds(SECOND, 50, SECOND_AT_LEAST_NAMED, SECOND_AT_MOST)


# A third round (a fresh blind learner in three more styles, a MATLAB user, a competitive
# programmer, a statistician: 65 wrong versions of 01-10, written after rounds 1-2 were fixed and
# never read by whoever changed the checks): on 1d5e18d 55 named (85%), 5 unnamed, 5 accepted; on
# 5b3c906 57 (88%), 3 unnamed, 5 accepted; after its classes were fixed (integer inputs, H = 1 and
# H = D, each condition of a raise, a feature map on one token, the sample variance) the figures
# below. One accepted case (float32 throughout) is fair by docs/contract.md's type rule: FAIR.
THIRD = Path(__file__).resolve().parent / "heldout" / "learners39c"
THIRD_AT_LEAST_NAMED = 0.95
THIRD_AT_MOST = {"accepted": 0, "misleading": 0, "raw": 0}


@pytest.mark.notebooks
def test_the_third_round_figures_do_not_fall():
    _round_holds(THIRD, 60, THIRD_AT_LEAST_NAMED, THIRD_AT_MOST)


# Notebook 13's round (issue 43): a blind learner in four styles (careful, loops, torch, misread
# contract) wrote 52 wrong versions of its exercises and predictions, never read by whoever changed
# the cards. On a5981d7, the notebook as first built: 39 named (75%), 2 misleading, 10 unnamed, 1
# accepted (document ids assumed to increase). After its classes were catalogued (ids in any order,
# the mask convention flipped, a finite fill, ALiBi's other slopes, unclipped sink ranges, a
# boolean keep-mask, the absorbed map summed over heads, top-k over the wrong axis): the figures below.
FOURTH = Path(__file__).resolve().parent / "heldout" / "learners43"
FOURTH_AT_LEAST_NAMED = 0.90  # 49 of 52 (94%)
FOURTH_AT_MOST = {"accepted": 0, "misleading": 0, "raw": 0}


@pytest.mark.notebooks
def test_notebook_13s_round_figures_do_not_fall():
    _round_holds(FOURTH, 50, FOURTH_AT_LEAST_NAMED, FOURTH_AT_MOST)


# A fifth round (issue 41): 36 wrong versions of the two exercises notebooks 11 and 12 took in this
# issue, ring_cache_decode_step and induction_score, 6 per exercise in each of three styles (hasty,
# loops, careful), written by a blind helper from the student notebooks alone. On the cards as first
# written (f6e2444): 18 named (50%), 4 misleading, 13 unnamed, 1 accepted. After the classes they
# stood for were catalogued (the query left unrotated, a clockwise or interleaved or mis-scaled RoPE,
# positions from 1, the slots up to t % W, a window one short, one sequence of the batch; key t
# left out, a wrapped roll, the first occurrence only, rows and columns swapped, the causal limit off
# by one or applied after counting, the largest weight, tokens not broadcast to the heads, a check
# for repeats pooled across sequences): the figures below.
FIFTH = Path(__file__).resolve().parent / "heldout" / "learners54"
FIFTH_AT_LEAST_NAMED = 0.85
FIFTH_AT_MOST = {"accepted": 0, "misleading": 4, "raw": 0}


@pytest.mark.notebooks
def test_the_new_exercises_round_figures_do_not_fall():
    _round_holds(FIFTH, 34, FIFTH_AT_LEAST_NAMED, FIFTH_AT_MOST)
