"""Run every benchmark in this folder and print its figures (`make bench`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["check_speed.py", "notebook_times.py"]


def main() -> int:
    status = 0
    for script in SCRIPTS + sorted(p.name for p in HERE.glob("bench_*.py")):
        print(f"\n=== {script}", flush=True)
        status |= subprocess.call([sys.executable, str(HERE / script)])
    return status


if __name__ == "__main__":
    sys.exit(main())
