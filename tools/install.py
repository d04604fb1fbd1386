"""Install the course's pinned versions into a virtual environment (``make bootstrap`` runs this).

On Linux, PyPI's ``torch`` wheel is the CUDA build: it pulls about 20 ``nvidia-*`` packages
(several GB) that the course never uses, since every notebook runs on a CPU. So on Linux torch
is installed first from PyTorch's CPU-only wheel index (``TORCH_INDEX`` in the Makefile; empty
turns it off), at the version pinned in ``requirements.txt``; then ``requirements.txt`` is
installed as usual and finds torch already satisfied (``2.13.0+cpu`` satisfies ``==2.13.0``).
Elsewhere (macOS, Windows) PyPI's torch is already CPU-only and the plain pin is used.

Where the CPU index cannot be reached (a mirror-only or offline network), this says so in one
line and falls back to the plain pin. The probe has a short timeout, so the fallback costs a
few seconds, never pip's long network retries.

    python tools/install.py VENV_PYTHON [--torch-index URL] [--dry-run REPORT.json]

Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
PROBE_SECONDS = 5.0


SUPPORTED = ((3, 10), (3, 13))  # the oldest and newest minor CI runs (README, "Supported Pythons")


def check_python(python: str) -> None:
    """Stop with one clear line when the venv's Python is one the lock was not made for (pip would
    otherwise fail part-way with a resolver error about some package's Requires-Python)."""
    out = subprocess.run([python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"error: could not run {python}: {out.stderr.strip()[:200]}")
    version = tuple(int(x) for x in out.stdout.split("."))
    low, high = SUPPORTED
    if not low <= version[:2] <= high:
        raise SystemExit(
            f"error: {python} is Python {out.stdout.strip()}; the course supports Python "
            f"{low[0]}.{low[1]} to {high[0]}.{high[1]}. Delete .venv and run again with one of those, e.g. "
            f"`make bootstrap PYTHON=python3.12`.")


def torch_pin(requirements: Path = ROOT / "requirements.txt") -> str:
    """The ``torch==X`` line of ``requirements.txt`` (without an environment marker)."""
    for line in requirements.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].split(";", 1)[0].strip()
        if line.lower().startswith("torch=="):
            return line
    raise SystemExit(f"error: expected a 'torch==VERSION' line in {requirements}, found none")


def reachable(index: str, timeout: float = PROBE_SECONDS) -> bool:
    """Whether the index serves a ``torch/`` project page (a local folder index counts)."""
    url = index.rstrip("/") + "/torch/"
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        return Path(urllib.request.url2pathname(parsed.path)).is_dir()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout) as resp:
            return resp.status < 400
    except (OSError, ValueError):  # URLError, timeouts, refused connections, bad URLs
        return False


def plan(python: str, torch_index: str, platform: str = sys.platform,
         probe=reachable) -> tuple[list[list[str]], str]:
    """The pip commands to run, and the one-line note to print (empty when there is none)."""
    pip = [python, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    commands, note = [], ""
    if platform.startswith("linux") and torch_index:
        if probe(torch_index):
            # --no-deps: torch's own dependencies are pinned in requirements.txt, from PyPI
            commands.append(pip + ["--no-deps", "--index-url", torch_index, torch_pin()])
        else:
            note = (f"note: the CPU-only torch index {torch_index} is unreachable; installing "
                    f"{torch_pin()} from the default index instead (on Linux, PyPI's is the CUDA build)")
    commands.append(pip + ["-r", str(ROOT / "requirements.txt")])
    commands.append(pip + ["--no-deps", "-e", str(ROOT)])
    return commands, note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python", help="the virtual environment's python")
    parser.add_argument("--torch-index", default=os.environ.get("TORCH_INDEX", DEFAULT_TORCH_INDEX),
                        help="PyTorch's CPU wheel index, used on Linux; empty: the plain pin (default: %(default)s)")
    parser.add_argument("--dry-run", metavar="REPORT", help="resolve the CPU torch only: "
                        "pip install --dry-run --report REPORT (installs nothing)")
    args = parser.parse_args(argv)
    check_python(args.python)
    commands, note = plan(args.python, args.torch_index)
    if note:
        print(note, file=sys.stderr)
    if args.dry_run:
        torch_steps = [c for c in commands if "--index-url" in c]
        if not torch_steps:
            raise SystemExit("error: no CPU-index step on this platform/index, nothing to resolve")
        cmd = torch_steps[0] + ["--dry-run", "--ignore-installed", "--report", args.dry_run]
        return subprocess.run(cmd).returncode
    for cmd in commands:
        print(" ".join(cmd), file=sys.stderr)
        proc = subprocess.run(cmd)
        if proc.returncode != 0:
            return proc.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
