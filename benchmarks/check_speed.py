"""Time every check on the reference solution (target: well under a second each).

    .venv/bin/python benchmarks/check_speed.py
"""
from __future__ import annotations

import contextlib
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import coursekit as ck  # noqa: E402

TARGET_S = 0.5


def main() -> int:
    print(f"{'grade cell (visible + hidden tests)':60s} {'ms':>8s}   target < {TARGET_S * 1000:.0f} ms")
    worst = 0.0
    for a in ck.assignments():
        nb = ck.load(ck.solution_path(a))
        ns = ck.run_solutions(nb, ck.setup_namespace(nb))
        for gid in ck.grade_cells(nb):
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                exc = ck.run_grade_cell(nb, ns, gid)
            seconds = time.perf_counter() - start
            worst = max(worst, seconds)
            status = "FAILED" if exc else ("ok" if seconds < TARGET_S else "SLOW")
            print(f"{a + ' / ' + gid:60s} {seconds * 1000:8.1f}   {status}")
    print(f"slowest: {worst * 1000:.1f} ms")
    return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
