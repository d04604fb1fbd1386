"""Held-out red team, round 54: its ``cases/`` graded by round 54b's runner (the same runner, which
also lets a case ask for many tiny cells at the end), printing only figures. See README.md.

    .venv/bin/python tests/heldout/redteam54/figures.py [--root R] [-j N] [--only CLASS,...]
"""
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.argv[1:1] = ["--cases", str(HERE / "cases")]
    runpy.run_path(str(HERE.parent / "redteam54b" / "figures.py"), run_name="__main__")
