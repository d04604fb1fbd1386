"""Run a command while another process keeps one core busy, and print how long it took.

    .venv/bin/python benchmarks/busy.py [--burners 1] [--repeat 5] -- make test

This is how the test suite's duration in docs/benchmarks.md is measured: a shared laptop or CI machine
is rarely idle, and the suite must pass (and stay within its time) when it is not. The burner
is a plain Python loop; it is stopped when the command ends, whatever happens.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import subprocess
import sys
import time


def _burn() -> None:  # pragma: no cover - runs in the burner process
    x = 0
    while True:
        x = (x * 1103515245 + 12345) % 2**31


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=1, help="busy processes (default 1: one core)")
    parser.add_argument("--repeat", type=int, default=1, help="run the command this many times in a row")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("command: expected a command after --, got nothing")
    burners = [mp.Process(target=_burn, daemon=True) for _ in range(args.burners)]
    for b in burners:
        b.start()
    failures, times = 0, []
    try:
        for run in range(1, args.repeat + 1):
            start = time.perf_counter()
            code = subprocess.call(command)
            times.append(time.perf_counter() - start)
            failures += code != 0
            print(f"busy.py: run {run}/{args.repeat}: exit {code}, {times[-1]:.0f} s "
                  f"({times[-1] / 60:.1f} min) with {args.burners} busy core(s)", flush=True)
    finally:
        for b in burners:
            b.terminate()
    print(f"busy.py: {args.repeat - failures} of {args.repeat} runs passed; "
          f"min {min(times):.0f} s, max {max(times):.0f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
