"""The figures of the user's pages and the measurements they come from (issue 56, "Figures that
cannot go stale").

``benchmarks/measured.json`` holds every duration, size and test count the pages state, one key
each: its value (a number, a list of numbers, or a table of them), its unit, the command that
measured it, the commit, the date, the machine (cores) and the load average it saw; a figure the
pages took from somewhere else says where in ``source``. A page writes each figure inside a span
that names its key, which renders as plain text::

    `make release` of all 13 notebooks: <span data-measured="release_all_s">4 min 45 s</span>.
    a cell (<span data-setting="cell_seconds">60 s</span>) ...

``data-setting`` marks a figure that is no measurement (a time-out, a memory limit, a target):
its entry has ``"kind": "setting"`` and, where the code sets it, ``"source": "path.py:NAME"`` or
``"path.py:Class.NAME"``, read from the code by its syntax tree. A key ``name.part`` picks one part
of a table, ``name.1`` the second number of a list. The span's text agrees with the value when every number
in it rounds there (as many decimals as the page shows, in the page's unit: ``4 min 45 s`` is
285 s to the second, ``about 3 minutes`` is 2.5 to 3.5 min); a number with no unit of its own
takes the next unit in the span (``1.2 to 5.4 s``, ``7.9 / 10.5 ms``), else the entry's; a list
value lines up with the numbers in order. ``data-within="N"`` widens a figure to N either side.

    python tools/measured.py --check            # each page figure beside its measurement (make figures)
    python tools/measured.py --set release_all_s 285 --unit s --command "make release"
        [--load 1.5] [--source TEXT]           # record a measurement: commit, date, cores, load

``tests/test_measured_figures.py`` fails a figure that disagrees with its measurement, a
duration, size or test count in a page's prose outside any span (code blocks and inline code are
examples, not claims), a key no page shows that is not ``"tracked_only"``, and a setting the code
no longer has.
"""
from __future__ import annotations

import argparse
import ast
import datetime as _dt
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "benchmarks" / "measured.json"
sys.path.insert(0, str(ROOT / "src"))
from attnlab.claims import number_in  # noqa: E402  (the claims' reading of a number and its decimals)

FIELDS = ("value", "unit", "command", "commit", "date", "cores", "load")

# unit -> (dimension, factor to the dimension's base)
UNITS = {
    "ms": ("time", 1e-3), "s": ("time", 1.0), "sec": ("time", 1.0), "second": ("time", 1.0),
    "seconds": ("time", 1.0), "min": ("time", 60.0), "mins": ("time", 60.0), "minute": ("time", 60.0),
    "minutes": ("time", 60.0), "h": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0),
    "kB": ("bytes", 1e3), "KB": ("bytes", 1e3), "MB": ("bytes", 1e6), "GB": ("bytes", 1e9), "TB": ("bytes", 1e12),
    "KiB": ("bytes", 2.0 ** 10), "MiB": ("bytes", 2.0 ** 20), "GiB": ("bytes", 2.0 ** 30),
    "tests": ("tests", 1.0),
}
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_NUM = r"\d{1,3}(?:[,\u202f\u2009 ]\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?"
# a figure: a number, or several joined ("1.2 to 5.4 s", "0.45 and 0.38 s", "206-271 s", "7.9 / 10.5 ms"),
# and a unit; "4 min 45 s" and "1 h 5 min" are one figure
_JOIN = r"\s*(?:-|–|to|and|or|,|/)\s*"
FIGURE = re.compile(
    rf"(?<![\w.\-^])(?:(?P<ca>\d+)\s?(?P<cunit>h|hours?|min|minutes?)\s(?P<sub>\d+(?:\.\d+)?)\s?(?P<subunit>s|seconds?|min|minutes?)(?![\w])"
    rf"|(?P<nums>(?:{_NUM})(?:{_JOIN}(?:{_NUM}))*)\s?(?P<unit>{_UNIT})(?![\w]))")
BARE = re.compile(rf"(?<![\w.\-^])(?:{_NUM})(?![\w])")
MARKER = re.compile(
    r"""<span\b(?P<attrs>[^>]*?\bdata-(?P<kind>measured|setting)\s*=\s*(?P<q>["'])(?P<key>.*?)(?P=q)[^>]*)>"""
    r"(?P<text>.*?)</span\s*>", re.S | re.I)
_WITHIN = re.compile(r"""\bdata-within\s*=\s*["']([^"']*)["']""")
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.S | re.M)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_INLINE = re.compile(r"`(?:[^`\n]|\n(?!\s*\n))*`")  # inline code may wrap, not across a blank line


def pages(root: Path = ROOT) -> list[Path]:
    """The user's pages: the README, START.md (both), CONTRIBUTING.md and every page of docs/."""
    out = [root / "README.md", root / "START.md", root / "deploy" / "learner" / "START.md", root / "CONTRIBUTING.md"]
    return [p for p in out if p.exists()] + sorted((root / "docs").glob("*.md"))


def load(path: Path = FILE) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _blank(text: str, pattern: re.Pattern) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces (newlines kept: lines stay put)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def prose(text: str) -> str:
    """A page's prose: fenced code blocks, HTML comments and inline code blanked out."""
    return _blank(_blank(_blank(text, _FENCE), _COMMENT), _INLINE)


@dataclass
class Marker:
    kind: str      # "measured" or "setting"
    key: str
    text: str
    within: float | None
    line: int


def markers(text: str) -> list[Marker]:
    text = prose(text)  # a span shown as code is an example, not a figure
    out = []
    for m in MARKER.finditer(text):
        w = _WITHIN.search(m.group("attrs"))
        try:
            within = float(w.group(1)) if w else None
        except ValueError:
            within = float("nan")
        out.append(Marker(m.group("kind").lower(), m.group("key"), re.sub(r"<[^>]+>", "", m.group("text")).strip(),
                          within, text.count("\n", 0, m.start()) + 1))
    return out


@dataclass
class Figure:
    number: float      # as the page writes it, in ``unit``
    decimals: int      # the page's rounding: agrees with values within half of 10^-decimals
    unit: str | None   # None: the entry's unit
    text: str


def _number(s: str) -> tuple[float, int]:
    shown = number_in(s)
    assert shown is not None, s
    return shown


def figures(text: str) -> list[Figure]:
    """Every number of a span's text, in order, with its unit (its own, or the next one in the text)."""
    found: list[tuple[int, Figure]] = []
    covered = []
    for m in FIGURE.finditer(text):
        covered.append(m.span())
        if m.group("ca"):  # 4 min 45 s: one figure, to the last unit's rounding
            sub, dec = _number(m.group("sub"))
            base = UNITS[m.group("subunit")][1]
            found.append((m.start(), Figure(int(m.group("ca")) * UNITS[m.group("cunit")][1] / base + sub, dec,
                                            m.group("subunit"), m.group(0))))
            continue
        unit = m.group("unit")
        for n in re.finditer(_NUM, m.group("nums")):
            found.append((m.start() + n.start(), Figure(*_number(n.group(0)), unit, m.group(0))))
    for m in BARE.finditer(text):
        if any(a <= m.start() < b for a, b in covered):
            continue
        later = [(a, fig.unit) for a, fig in found if a > m.start()]
        unit = min(later)[1] if later else None
        found.append((m.start(), Figure(*_number(m.group(0)), unit, m.group(0))))
    return [fig for _, fig in sorted(found, key=lambda p: p[0])]


def unmarked(text: str) -> list[tuple[int, str]]:
    """``(line, figure)`` for each duration, size or test count of a page's prose outside a span."""
    clean = prose(text)
    clean = _blank(clean, MARKER)
    return [(clean.count("\n", 0, m.start()) + 1, m.group(0)) for m in FIGURE.finditer(clean)]


def entry(data: dict, key: str) -> tuple[dict | None, object]:
    """The entry a span's key names and its value (a part of a table for ``name.part``)."""
    name, _, part = key.partition(".")
    e = data.get("figures", {}).get(name)
    if e is None:
        return None, None
    value = e.get("value")
    if part:  # a part of a table, or the n-th (from 0) of a list
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return e, None
    return e, value


def disagreement(marker: Marker, e: dict, value) -> str | None:
    """Why a span's text does not say its entry's value (None when it does)."""
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return f"its measurement's value {value!r} is not a number or a list of numbers"
    figs = figures(marker.text)
    if len(figs) != len(values):
        return f"the text shows {len(figs)} number(s), the measurement {len(values)} ({value!r} {e.get('unit')})"
    if marker.within is not None and not (math.isfinite(marker.within) and marker.within > 0):
        return "data-within must be a positive number"
    have = e.get("unit")
    for fig, v in zip(figs, values):
        unit = fig.unit or have
        if unit != have:
            if unit not in UNITS or have not in UNITS or UNITS[unit][0] != UNITS[have][0]:
                return f"the text's unit {unit!r} is not the measurement's {have!r}"
            v = v * UNITS[have][1] / UNITS[unit][1]
        tolerance = 0.5 * 10.0 ** (-fig.decimals) * (1 + 1e-9)
        if marker.within is not None:
            tolerance = max(tolerance, marker.within * (1 + 1e-9))
        if abs(v - fig.number) > tolerance:
            shown = f"{v:.{max(fig.decimals, 0) + 2}f}" if fig.decimals >= 0 else f"{v:.4g}"
            return f"the text says {fig.text!r}, the measurement is {shown} {unit}"
    return None


def setting_in_code(source: str, root: Path = ROOT):
    """The value ``path.py:NAME`` or ``path.py:Class.NAME`` assigns, read from the file's syntax tree."""
    path, _, name = source.partition(":")
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    scope, _, attr = name.rpartition(".")
    body = tree.body
    if scope:
        body = next((n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == scope), [])
    for node in body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            names = [t] if isinstance(t, ast.Name) else list(t.elts) if isinstance(t, ast.Tuple) else []
            for i, n in enumerate(names):
                if isinstance(n, ast.Name) and n.id == attr and node.value is not None:
                    value = node.value.elts[i] if isinstance(t, ast.Tuple) else node.value
                    return eval(compile(ast.Expression(value), path, "eval"), {"__builtins__": {}})  # constants only
    raise LookupError(f"{source}: no such assignment")


def problems(root: Path = ROOT, data: dict | None = None, texts: dict[str, str] | None = None) -> list[str]:
    """Everything wrong between the pages and the measurement file (empty when they agree).
    ``texts`` (page name -> text) replaces the pages, for tests."""
    data = load(root / "benchmarks" / "measured.json") if data is None else data
    texts = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in pages(root)} if texts is None else texts
    out, used = [], set()
    for page, text in texts.items():
        for mk in markers(text):
            where = f"{page}:{mk.line}"
            e, value = entry(data, mk.key)
            used.add(mk.key.partition(".")[0])
            if e is None or value is None:
                out.append(f"{where}: {mk.text!r} names {mk.key!r}, which {'benchmarks/measured.json has no' if e is None else 'has no such part'}")
                continue
            kind = e.get("kind", "measured")
            if (kind == "setting") != (mk.kind == "setting"):
                out.append(f"{where}: {mk.text!r} is marked data-{mk.kind}, but {mk.key!r} is a {kind}")
            why = disagreement(mk, e, value)
            if why:
                out.append(f"{where}: {mk.key!r}: {why}")
        for line, fig in unmarked(text):
            out.append(f"{page}:{line}: {fig!r} is not marked: wrap it in <span data-measured=\"KEY\">...</span> "
                       f"(a limit or a target: data-setting) with KEY in benchmarks/measured.json")
    for key, e in data.get("figures", {}).items():
        missing = [f for f in FIELDS if f not in e] if e.get("kind", "measured") == "measured" else \
            [f for f in ("value", "unit") if f not in e]
        if missing:
            out.append(f"benchmarks/measured.json: {key!r} lacks {', '.join(missing)} (null where the page gave none)")
        if key not in used and not e.get("tracked_only"):
            out.append(f"benchmarks/measured.json: {key!r} is shown by no page (show it, or set \"tracked_only\": true)")
        if e.get("kind") == "setting" and e.get("source"):
            try:
                code = setting_in_code(e["source"], root)
            except (OSError, LookupError, SyntaxError) as exc:
                out.append(f"benchmarks/measured.json: setting {key!r}: {exc}")
                continue
            scale = e.get("scale", 1)
            if not isinstance(code, (int, float)) or abs(code * scale - e["value"]) > 1e-9 * max(1.0, abs(e["value"])):
                out.append(f"benchmarks/measured.json: setting {key!r} = {e['value']!r}, but {e['source']} is {code!r}"
                           + (f" (x {scale})" if scale != 1 else ""))
    return out


def _provenance(e: dict) -> str:
    if e.get("kind") == "setting":
        return f"setting{', ' + e['source'] if e.get('source') else ''}{'; ' + e['note'] if e.get('note') else ''}"
    bits = [e.get("command") or "", f"at {e['commit']}" if e.get("commit") else "", e.get("date") or "",
            f"{e['cores']} cores" if e.get("cores") else "", f"load {e['load']}" if e.get("load") is not None else ""]
    text = ", ".join(b for b in bits if b)
    return "; ".join(b for b in (text, e.get("source")) if b)


def check(root: Path = ROOT) -> int:
    data = load(root / "benchmarks" / "measured.json")
    for page in pages(root):
        rel = page.relative_to(root).as_posix()
        for mk in markers(page.read_text(encoding="utf-8")):
            e, value = entry(data, mk.key)
            why = disagreement(mk, e, value) if e is not None and value is not None else "no such key"
            shown = f"{value!r} {e.get('unit')}" if e is not None else "?"
            print(f"{'ok  ' if why is None else 'DIFF'} {rel}:{mk.line}  {mk.text!r}  <- {mk.key} = {shown}"
                  + (f"  [{_provenance(e)}]" if e is not None else "") + (f"  ({why})" if why else ""))
    found = problems(root, data)
    print(f"\n{len(found)} problem(s)" + (":\n" + "\n".join(found) if found else ": every figure agrees with its measurement"))
    return 1 if found else 0


def _git(*args: str, root: Path = ROOT) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def record(key: str, value, unit: str, command: str, *, path: Path = FILE, load: float | None = None,
           source: str | None = None, root: Path = ROOT) -> dict:
    """Write a measurement into the measurement file: the value and unit, the command, the commit
    (``+`` when the tree had changes), the date (UTC), the machine's cores and its load average
    (the 1-minute one now, unless the caller saw another during the run)."""
    data = load_or_new(path)
    commit = _git("rev-parse", "--short", "HEAD", root=root)
    if commit and _git("status", "--porcelain", "--untracked-files=no", root=root):
        commit += "+"
    if load is None and hasattr(os, "getloadavg"):
        load = round(os.getloadavg()[0], 2)
    old = data["figures"].get(key, {})
    new = {"value": value, "unit": unit, "command": command, "commit": commit,
           "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "cores": os.cpu_count(), "load": load}
    if source:
        new["source"] = source
    for k in ("tracked_only", "note"):
        if k in old:
            new[k] = old[k]
    data["figures"][key] = new
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return new


def load_or_new(path: Path) -> dict:
    return load(path) if Path(path).exists() else {"figures": {}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="print each page figure beside its measurement")
    parser.add_argument("--set", nargs=2, metavar=("KEY", "VALUE"), help="record a measurement")
    parser.add_argument("--unit", help="the value's unit (with --set; default: the key's unit so far)")
    parser.add_argument("--command", help="the command that measured it (with --set)")
    parser.add_argument("--load", type=float, help="the load average the run saw (default: now)")
    parser.add_argument("--source", help="where the figure comes from, if not this machine's run")
    parser.add_argument("--show", nargs="+", metavar="KEY", help="print these recorded figures with where they come from")
    parser.add_argument("--file", type=Path, default=FILE, help="the measurement file")
    args = parser.parse_args(argv)
    if args.show:
        figures = load_or_new(args.file)["figures"]
        missing = [k for k in args.show if k not in figures]
        for key in args.show:
            if key in figures:
                e = figures[key]
                print(f"recorded {key} = {e.get('value')} {e.get('unit', '')} ({_provenance(e)})")
        if missing:
            print(f"error: no recorded figure named {', '.join(missing)} in {args.file}", file=sys.stderr)
            return 1
        return 0
    if args.set:
        key, raw = args.set
        old = load_or_new(args.file)["figures"].get(key, {})
        unit = args.unit or old.get("unit")
        if not unit or not args.command:
            parser.error("--set needs --command, and --unit for a new key")
        value = json.loads(raw) if raw.strip().startswith(("[", "{")) else float(raw)
        if isinstance(value, float) and value.is_integer() and "." not in raw:
            value = int(value)
        e = record(key, value, unit, args.command, path=args.file, load=args.load, source=args.source)
        print(f"recorded {key} = {value} {unit} ({_provenance(e)}) in {args.file}")
        return 0
    return check()


if __name__ == "__main__":
    sys.exit(main())
