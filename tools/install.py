"""Install the course's pinned versions into a virtual environment (``make bootstrap`` runs this,
and so does the README's route without make).

On Linux, PyPI's ``torch`` wheel is the CUDA build: it pulls about 20 ``nvidia-*`` packages
(several GB) that the course never uses, since every notebook runs on a CPU. So on Linux this
never installs a CUDA torch unless told to (``--allow-cuda-torch``). torch comes, in this order:

1. from a wheel file you downloaded (``--torch-wheel PATH`` or ``TORCH_WHEEL``), if given;
2. from PyTorch's CPU-only wheel index (``--torch-index URL``, ``TORCH_INDEX``, default below; a
   reachable mirror of it works the same), at the version pinned in ``requirements.txt``
   (``2.13.0+cpu`` satisfies ``==2.13.0``), if a short probe (a few seconds, never pip's minutes
   of retries) reaches it;
3. otherwise (the index unreachable, or ``--torch-index ""``) from the plain pin, but only after
   ``pip install --dry-run --report`` shows what the plain pin resolves to here: a CPU build (a
   ``+cpu`` version, or a wheel that requires no ``nvidia-*`` package nor ``triton``: a local
   wheel folder, a mirror that serves the CPU build) is installed with a one-line note; the CUDA
   build stops the install, before anything is installed, with one message naming the three
   ways on.

Then ``requirements.txt`` is installed as usual and finds torch already satisfied, and the course
itself (``-e .``). Elsewhere (macOS, Windows) PyPI's torch is CPU-only and the plain pin is used.

    python tools/install.py VENV_PYTHON [--torch-index URL] [--torch-wheel PATH] [--allow-cuda-torch]
                                        [--dry-run REPORT.json]

Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import time
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
PROBE_SECONDS = 5.0
ALLOW_CUDA_ENV = "ATTNLAB_ALLOW_CUDA_TORCH"


SUPPORTED = ((3, 10), (3, 13))  # the oldest and newest minor CI runs (docs/install.md, "Supported Pythons")


class Refused(SystemExit):
    """The install stops before pip installs anything; the message says why and what to do."""


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
    """Whether the index serves a ``torch/`` project page (a local folder index counts). Bounded by
    ``timeout`` in all, name lookup included (a socket timeout alone does not bound DNS)."""
    url = index.rstrip("/") + "/torch/"
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        return Path(urllib.request.url2pathname(parsed.path)).is_dir()
    answer = []

    def probe() -> None:
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout) as resp:
                answer.append(resp.status < 400)
        except (OSError, ValueError):  # URLError, timeouts, refused connections, bad URLs
            answer.append(False)

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    return bool(answer and answer[0])


MIN_PIP = (23, 0)  # --report (22.2) and wheel metadata read alone, never the whole wheel (PEP 658, 22.3)


def pip_version(python: str) -> tuple[int, ...]:
    out = subprocess.run([python, "-m", "pip", "--version"], capture_output=True, text=True).stdout
    match = re.match(r"pip (\d+)\.(\d+)", out)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def resolve_plain_pin(python: str, pin: str) -> dict:
    """What ``pip install PIN`` would install with this venv's pip and configuration, without
    installing anything: the report of ``pip install --dry-run --report`` (torch alone, so pip
    reads one wheel's metadata; an already satisfied pin gives an empty ``install`` list). A pip
    older than 23.0 (Ubuntu 22.04's venv has 22.0) is upgraded in the venv first: it has no
    ``--report``, and would download the whole CUDA wheel (about 1 GB) to read its metadata."""
    if pip_version(python) < MIN_PIP:
        print(f"note: upgrading the venv's pip to {MIN_PIP[0]}.{MIN_PIP[1]} or later, to ask it what {pin} "
              f"resolves to", file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--upgrade",
                        f"pip>={MIN_PIP[0]}.{MIN_PIP[1]}"], check=False)
    cmd = [python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--dry-run", "--no-deps",
           "--report", "-", pin]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-6:])
        raise Refused(f"error: could not resolve {pin} with pip ({' '.join(cmd[1:])}: exit {proc.returncode}):\n"
                      f"{tail}\n{ways_on(pin, python)}")
    text = proc.stdout
    return json.loads(text[text.index("{"):]) if "{" in text else {"install": []}


# what PyPI's Linux torch requires and its CPU build does not: nvidia-*, cuda-toolkit, cuda-bindings, triton
CUDA_NAME = re.compile(r"^\s*(nvidia-[A-Za-z0-9._-]+|cuda-[A-Za-z0-9._-]+|triton)(?![A-Za-z0-9._-])", re.I)


def cuda_build(report: dict) -> str:
    """Why the torch in a pip report is a CUDA build (its ``+cuXYZ`` version, or the ``nvidia-*``,
    ``cuda-*`` and ``triton`` packages it requires or that the report installs), or ``""`` for a CPU build
    (``+cpu``, or no such requirement) and for a report that installs no torch."""
    items = report.get("install", [])
    names = [i.get("metadata", {}).get("name", "") for i in items]
    pulled = sorted(n for n in names if CUDA_NAME.match(n))
    for item in items:
        meta = item.get("metadata", {})
        if meta.get("name", "").lower() != "torch":
            continue
        version = meta.get("version", "")
        local = version.partition("+")[2].lower()
        if local == "cpu" or local.startswith("cpu."):
            return ""
        if local.startswith("cu"):
            return f"its version is +{local}"
        needs = sorted({CUDA_NAME.match(r).group(1) for r in meta.get("requires_dist", []) or []
                        if CUDA_NAME.match(r)} | set(pulled))
        if needs:
            shown = ", ".join(needs[:3]) + (f" and {len(needs) - 3} more" if len(needs) > 3 else "")
            return f"it requires {shown}"
        return ""
    return f"pip would install {', '.join(pulled)}" if pulled else ""


def resolved_torch(report: dict) -> str:
    """``torch VERSION (from WHERE)`` for the note, or ``""`` where the report installs no torch."""
    for item in report.get("install", []):
        if item.get("metadata", {}).get("name", "").lower() == "torch":
            url = item.get("download_info", {}).get("url", "")
            return f"torch {item['metadata'].get('version', '?')}" + (f" ({url})" if url else "")
    return ""


def wheel_name(pin: str, python: str = "") -> str:
    """The CPU wheel's file name for that venv's Python (generic where it cannot be run)."""
    version = pin.partition("==")[2]
    try:
        out = subprocess.run([python, "-c", "import sys, platform; "
                              "print('cp%d%d' % sys.version_info[:2], platform.machine())"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        tag, machine = out
    except (OSError, ValueError, subprocess.SubprocessError):
        tag, machine = "cpXY", "x86_64"
    return f"torch-{version}+cpu-{tag}-{tag}-manylinux_*_{machine}.whl"


def ways_on(pin: str, python: str = "") -> str:
    return (
        "Nothing was installed. Three ways on:\n"
        f"  * a reachable mirror of PyTorch's CPU index: --torch-index URL (or TORCH_INDEX=URL; "
        f"make bootstrap TORCH_INDEX=URL)\n"
        f"  * the CPU wheel, downloaded elsewhere from {DEFAULT_TORCH_INDEX}/torch/ "
        f"({wheel_name(pin, python)}): --torch-wheel PATH "
        f"(or TORCH_WHEEL=PATH)\n"
        f"  * PyPI's CUDA build after all (several GB of nvidia-* packages the course never uses): "
        f"--allow-cuda-torch (or {ALLOW_CUDA_ENV}=1)")


def check_wheel(path: str, pin: str, allow_cuda: bool) -> None:
    """A ``--torch-wheel`` must exist, be a torch wheel at the pinned version (else the lock would
    replace it) and, unless allowed, not a CUDA build."""
    wheel = Path(path)
    version = pin.partition("==")[2]
    match = re.match(r"^torch-([^-]+)-.+\.whl$", wheel.name)
    if not wheel.is_file():
        raise Refused(f"error: --torch-wheel {path}: no such file")
    if not match or match.group(1).partition("+")[0] != version:
        raise Refused(f"error: --torch-wheel {path}: expected a wheel of {pin} "
                      f"(torch-{version}+cpu-...whl), not {wheel.name}")
    if match.group(1).partition("+")[2].lower().startswith("cu") and not allow_cuda:
        raise Refused(f"error: --torch-wheel {path} is a CUDA build; take the +cpu wheel, or pass --allow-cuda-torch")


def plan(python: str, torch_index: str, platform: str = sys.platform, probe=None, resolve=None,
         torch_wheel: str = "", allow_cuda: bool = False) -> tuple[list[list[str]], str]:
    """The pip commands to run, and the one-line note to print (empty when there is none). Raises
    :class:`Refused` (a ``SystemExit`` with its message) where, on Linux, torch would be the CUDA
    build and that was not allowed; ``resolve`` is then the only thing that ran (a dry run).
    ``probe`` and ``resolve`` default to :func:`reachable` and :func:`resolve_plain_pin`."""
    probe = probe or reachable
    resolve = resolve or resolve_plain_pin
    pip = [python, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    pin = torch_pin()
    commands, note = [], ""
    if platform.startswith("linux"):
        if torch_wheel:
            check_wheel(torch_wheel, pin, allow_cuda)
            # --no-deps: torch's own dependencies are pinned in requirements.txt, from PyPI
            commands.append(pip + ["--no-deps", str(Path(torch_wheel).resolve())])
            note = f"note: installing torch from {torch_wheel}"
        elif torch_index and probe(torch_index):
            commands.append(pip + ["--no-deps", "--index-url", torch_index, pin])
        else:
            why = (f"the CPU-only torch index {torch_index} is unreachable" if torch_index
                   else "no CPU-only torch index given")
            if allow_cuda:
                note = f"note: {why}; installing {pin} from the default index, the CUDA build allowed"
            else:
                report = resolve(python, pin)
                cuda = cuda_build(report)
                if cuda:
                    raise Refused(f"error: {why}, and here the plain pin {pin} resolves to the CUDA build "
                                  f"({resolved_torch(report) or 'torch'}: {cuda}).\n{ways_on(pin, python)}")
                found = resolved_torch(report)
                if found:
                    note = f"note: {why}; the plain pin {pin} resolves to a CPU build here ({found}): installing it"
                    commands.append(pip + ["--no-deps", pin])
                else:
                    note = f"note: {why}; {pin} is already installed, the plain pin installs nothing new"
    commands.append(pip + ["-r", str(ROOT / "requirements.txt")])
    commands.append(pip + ["--no-deps", "-e", str(ROOT)])
    return commands, note


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() not in ("", "0", "no", "off", "false")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("python", help="the virtual environment's python")
    parser.add_argument("--torch-index", default=os.environ.get("TORCH_INDEX", DEFAULT_TORCH_INDEX),
                        help="PyTorch's CPU wheel index (or a mirror of it), used on Linux; empty: none "
                             "(default: $TORCH_INDEX or %(default)s)")
    parser.add_argument("--torch-wheel", default=os.environ.get("TORCH_WHEEL", ""), metavar="PATH",
                        help="a torch +cpu wheel file to install on Linux instead of any index (default: $TORCH_WHEEL)")
    parser.add_argument("--allow-cuda-torch", action="store_true", default=_truthy(os.environ.get(ALLOW_CUDA_ENV)),
                        help=f"on Linux, install the plain pin even where it is the CUDA build (or {ALLOW_CUDA_ENV}=1)")
    parser.add_argument("--dry-run", metavar="REPORT", help="resolve the CPU torch only: "
                        "pip install --dry-run --report REPORT (installs nothing)")
    args = parser.parse_args(argv)
    check_python(args.python)
    try:
        commands, note = plan(args.python, args.torch_index, torch_wheel=args.torch_wheel,
                              allow_cuda=args.allow_cuda_torch)
    except Refused as exc:
        print(exc.code, file=sys.stderr)
        return 2
    if note:
        print(note, file=sys.stderr)
    if args.dry_run:
        torch_steps = [c for c in commands if "--index-url" in c]
        if not torch_steps:
            raise SystemExit("error: no CPU-index step on this platform/index, nothing to resolve")
        cmd = torch_steps[0] + ["--dry-run", "--ignore-installed", "--report", args.dry_run]
        return subprocess.run(cmd).returncode
    # Never silent: each step says what it is, k of N and the time so far; pip's own lines (one per
    # package it collects, downloads or installs) follow, and a last line says it finished.
    start = time.monotonic()
    for k, cmd in enumerate(commands, 1):
        what = ("torch" if "--index-url" in cmd or any(c.endswith(".whl") or c.startswith("torch==") for c in cmd)
                else "the pinned packages (requirements.txt)" if "-r" in cmd else "attnlab itself (editable)")
        print(f"[install {k}/{len(commands)}, {time.monotonic() - start:.0f} s so far] {what}: {' '.join(cmd)}",
              file=sys.stderr, flush=True)
        proc = subprocess.run([c for c in cmd if c != "-q"] if "-r" in cmd else cmd)
        if proc.returncode != 0:
            print(f"install failed at step {k}/{len(commands)} ({what}) after {time.monotonic() - start:.0f} s",
                  file=sys.stderr, flush=True)
            return proc.returncode
    print(f"install finished: {len(commands)} step(s) in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
