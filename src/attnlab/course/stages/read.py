"""Stage 2, read: the submitted notebook as data, what its code shows unrun, and the job's cells.

Boundary rules owned here: the trusted process never runs learner code, it parses it. The
notebook is read with bounds (file size, source size, JSON depth), strings are cleaned (lone
surrogates, NULs), nbgrader metadata keeps only known keys of known types; learner code is
parsed one thread at a time (CPython 3.11's ``ast``); static findings (a reference borrowed,
tampering) come from the parse. The job's cells are the learner's, with the course's own
graded cells restored, and the imports the sandbox preloads are chosen here.
"""
from __future__ import annotations

import ast
import datetime as dt
import functools
import json
import re
import threading
import uuid
from pathlib import Path

from .. import boundary, tamper
from ..plan import AssignmentPlan
from .collect import Collected, NotRegular, read_regular
from .handoff import ReadResult


# ---------------------------------------------------------------------------------------------
# Reading a submission

AST_LOCK = threading.Lock()   # parsing learner code: one thread at a time (see _grade_into)

# CPython 3.11 keeps the recursion depth of the AST converter in state shared by all threads, so
# two threads calling ast.parse at once (two grading jobs, or a job and the main thread) can fail
# with "SystemError: AST constructor recursion depth mismatch". Every ast.parse in the grader's
# process (ours, IPython's, ast.literal_eval's) therefore goes through one lock.
_PARSE_LOCK = threading.RLock()


def _serialised_parse(parse):
    def parse_one_at_a_time(*args, **kwargs):
        with _PARSE_LOCK:
            return parse(*args, **kwargs)
    parse_one_at_a_time.__wrapped__ = parse
    parse_one_at_a_time.__doc__ = parse.__doc__
    parse_one_at_a_time.attnlab_serialised = True
    return parse_one_at_a_time


if not getattr(ast.parse, "attnlab_serialised", False):
    ast.parse = _serialised_parse(ast.parse)
MAX_NOTEBOOK_BYTES = 512 * 2**20   # the file, outputs included (plots make notebooks big)
MAX_SOURCE_CHARS = 4 * 2**20       # the code and text a learner wrote: far above any real notebook
MAX_DEPTH = 40                     # nesting of JSON in a notebook; deeper metadata is dropped
MAX_RESULT_BYTES = 64 * 2**20      # one answer coming back from the sandbox


def _too_deep(value, limit: int) -> bool:
    """Whether ``value`` (parsed JSON) nests deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return True
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return False


_NBGRADER_KEYS = {"grade": bool, "solution": bool, "locked": bool, "task": bool,
                  "grade_id": str, "points": (int, float), "schema_version": int}


def _clean_nbgrader(meta) -> dict | None:
    """The cell's nbgrader metadata with only well-typed known fields (None if unusable)."""
    if not isinstance(meta, dict):
        return None
    out = {}
    for key, value in meta.items():
        kind = _NBGRADER_KEYS.get(key)
        if kind is None:  # other fields (checksum, cell_type, ...) kept when they are plain values
            if isinstance(key, str) and isinstance(value, (str, int, float, bool, type(None))) and len(str(value)) < 200:
                out[key] = value
        elif isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
            out[key] = value
    if "points" in out and not (0 <= out["points"] < 1e6):
        del out["points"]
    if "grade_id" in out and len(out["grade_id"]) > 200:
        del out["grade_id"]
    return out


_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # a surrogate escape in JSON (pairs are checked by clean_text)


def read_notebook(path: Path) -> tuple[dict | None, str]:
    """The notebook as nbformat 4 data, or None and what is wrong with it. Never raises.

    Read defensively: regular files only; size limits on what the learner wrote (sources), not
    on outputs; metadata of the wrong type or nested too deep is dropped; cells without ids get
    one. Notebooks in format 4 are read as plain JSON (importing nbformat costs seconds, which
    would delay every batch); older formats are converted by nbformat.
    """
    try:
        return _read_notebook(path)
    except Exception as exc:  # noqa: BLE001 - whatever the file is, it is a verdict, not a crash
        return None, f"{path.name} is not a readable notebook ({type(exc).__name__}: {str(exc)[:120]})"


def _read_notebook(path: Path) -> tuple[dict | None, str]:
    try:
        raw = read_regular(path, MAX_NOTEBOOK_BYTES)
    except NotRegular as exc:
        return None, f"{exc}: submit the notebook file itself"
    except ValueError as exc:
        return None, f"{exc}: larger than any real notebook"
    except OSError as exc:
        return None, f"cannot read {path.name}: {exc.strerror}"
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not an error
    except UnicodeDecodeError as exc:
        return None, f"{path.name} is not UTF-8 text (byte {exc.start})"
    del raw
    try:
        data = json.loads(text)
        if _LONE_SURROGATE.search(text):
            data = clean_text(data)
    except RecursionError:
        return None, f"{path.name} is not a readable notebook (JSON nested too deep)"
    except ValueError as exc:
        return None, f"{path.name} is not a readable notebook (invalid JSON: {str(exc)[:120]})"
    if not isinstance(data, dict):
        return None, f"{path.name} is not a readable notebook (no notebook object)"
    notes = []
    if data.get("nbformat") != 4:
        import nbformat

        try:
            data = json.loads(nbformat.writes(nbformat.reads(text, as_version=4)))
        except Exception as exc:  # noqa: BLE001 - any parse or conversion failure
            return None, f"{path.name} is not a readable notebook ({type(exc).__name__}: {str(exc)[:120]})"
        orig = data.get("metadata", {}).get("orig_nbformat", "?") if isinstance(data.get("metadata"), dict) else "?"
        notes.append(f"{path.name} was converted from nbformat {orig}")
    del text
    cells = data.get("cells")
    if not isinstance(cells, list):
        return None, f"{path.name} is not a readable notebook (no list of cells)"
    if not isinstance(data.get("metadata"), dict) or _too_deep(data["metadata"], MAX_DEPTH):
        data["metadata"] = {}
    minor = data.get("nbformat_minor")
    if not isinstance(minor, int) or isinstance(minor, bool) or not 0 <= minor <= 5:
        data["nbformat_minor"] = 5
    written, seen_ids, dropped = 0, set(), 0
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            return None, f"{path.name} has a cell that is not a notebook cell"
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            return None, f"{path.name} has a cell whose source is not text"
        written += len(source)
        cell["source"] = source
        meta = cell.get("metadata")
        if not isinstance(meta, dict) or _too_deep(meta, MAX_DEPTH):
            dropped += meta is not None
            meta = {}
        if "nbgrader" in meta:
            clean = _clean_nbgrader(meta["nbgrader"])
            if clean != meta["nbgrader"]:
                dropped += 1
            if clean:
                meta["nbgrader"] = clean
            else:
                meta.pop("nbgrader")
        cell["metadata"] = meta
        if cell["cell_type"] == "code":
            if not isinstance(cell.get("outputs"), list) or _too_deep(cell["outputs"], MAX_DEPTH):
                cell["outputs"] = []
            if not isinstance(cell.get("execution_count"), int):
                cell["execution_count"] = None
        else:
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            if "attachments" in cell and (not isinstance(cell["attachments"], dict)
                                          or _too_deep(cell["attachments"], MAX_DEPTH)):
                cell.pop("attachments")
        cid = cell.get("id")
        if not isinstance(cid, str) or not cid or len(cid) > 64 or cid in seen_ids:
            cid = uuid.uuid4().hex[:12]
            cell["id"] = cid
            data["nbformat_minor"] = max(data.get("nbformat_minor", 5), 5)
        seen_ids.add(cid)
        for key in list(cell):
            if key not in ("cell_type", "id", "metadata", "source", "outputs", "execution_count", "attachments"):
                cell.pop(key)
    if written > MAX_SOURCE_CHARS:
        return None, (f"{path.name} holds {written / 2**20:.1f} MiB of code and text, more than any "
                      f"real notebook ({MAX_SOURCE_CHARS / 2**20:.0f} MiB)")
    if dropped:
        notes.append(f"metadata of {dropped} cell(s) was not valid notebook metadata and was ignored")
    if any(cell.get("id") is None for cell in cells):  # pragma: no cover - every cell got an id above
        return None, f"{path.name} has cells without ids"
    return data, "; ".join(notes)


def parse_utc(text: str) -> dt.datetime:
    """A timestamp as nbgrader stores it: naive UTC."""
    from dateutil.parser import parse

    stamp = parse(text)
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return stamp


def read_timestamp(folder: Path) -> dt.datetime | None:
    path = folder / "timestamp.txt"
    try:
        return parse_utc(read_regular(path, 4096).decode("utf-8", "replace").strip())
    except Exception:  # noqa: BLE001 - an unreadable timestamp is treated as none
        return None


# ---------------------------------------------------------------------------------------------
# The job

def _nbg(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


@functools.lru_cache(maxsize=1024)
def _names(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """(names a cell binds at top level, every name its code refers to, in functions too);
    cached, as most cells are the same in every submission."""
    tree = tamper.parse(source)
    if tree is None:
        return frozenset(), frozenset()
    bound = set()
    for stmt in tamper._top_level(tree):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = (stmt.targets if isinstance(stmt, ast.Assign) else
                       [stmt.target] if hasattr(stmt, "target") else [i.optional_vars for i in stmt.items if i.optional_vars])
            bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    used: set[str] = set()
    try:
        import symtable

        stack = [symtable.symtable(ast.unparse(tree), "<cell>", "exec")]
    except (SyntaxError, ValueError, RecursionError):
        return frozenset(bound), frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    while stack:  # global names referenced at top level and inside functions and classes
        table = stack.pop()
        top = table.get_type() == "module"
        for sym in table.get_symbols():
            if sym.is_referenced() and (top or sym.is_global()):
                used.add(sym.get_name())
        stack.extend(table.get_children())
    return frozenset(bound), frozenset(used)


def needed_demo_cells(cells: list[tuple[str, str, bool]]) -> set[int]:
    """Indices of the demo cells (``is_demo``) whose names the other cells (or needed demo
    cells) use: the helpers an exercise needs run, a demo that only shows something does not."""
    needed: set[str] = set()
    keep: set[int] = set()
    for i in range(len(cells) - 1, -1, -1):
        _, source, is_demo = cells[i]
        bound, used = _names(source)
        if not is_demo:
            needed |= used
        elif bound & needed:
            keep.add(i)
            needed |= used
    return keep


def job_cells(plan: AssignmentPlan, nb: dict) -> tuple[list[tuple[str, str]], list[int]]:
    """The cells the sandbox runs, in order, and where each comes from in ``nb``.

    Setup cells run as in the source (restored first if deleted); the learner's solution cells
    and the cells they added or changed run as written; the course's own demo cells run when a
    cell that runs uses a name they define (a helper defined in a demo cell works, as in
    Jupyter), other demo cells and the grade cells do not (grading needs neither).
    """
    candidates = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code" and cell["source"] in plan.demo_sources and not _nbg(cell):
            candidates.append((str(index), cell["source"], True))
        elif cell["cell_type"] == "code" and not (_nbg(cell).get("grade") and not _nbg(cell).get("solution")):
            candidates.append((str(index), cell["source"], False))
    keep_demo = {int(candidates[i][0]) for i in needed_demo_cells(candidates)}
    cells, origin = [], []
    present = {_nbg(c).get("grade_id") for c in nb["cells"]}
    for gid, src in plan.setup.items():  # restore deleted setup cells first
        if gid not in present:
            cells.append((f"setup {gid} (restored)", src))
            origin.append(-1)
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        meta = _nbg(cell)
        gid = meta.get("grade_id")
        if meta.get("grade") and not meta.get("solution"):
            continue
        if gid in plan.setup:
            cells.append((f"setup {gid}", plan.setup[gid]))
        elif meta.get("solution"):
            cells.append((f"solution {gid}", cell["source"]))
        elif not cell["source"].strip():
            continue
        elif cell["source"] in plan.demo_sources:
            if index not in keep_demo:
                continue
            cells.append((f"demo cell {index + 1}", cell["source"]))
        else:
            cells.append((f"cell {index + 1} (yours)", cell["source"]))
        origin.append(index)
    return cells, origin


def _load_json(path: Path, limit: int = 4 * 2**20):
    return clean_text(json.loads(read_regular(path, limit).decode("utf-8")))


def _clean_str(text: str) -> str:
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:  # lone surrogates ("\\udcff" in JSON, bytes decoded with surrogateescape)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def clean_text(value):
    """``value`` (parsed JSON) with every string made encodable as UTF-8: a lone surrogate, which
    JSON allows and a learner's output or error message can hold, becomes its escape (``\\udcff``)
    instead of failing the CSV, the gradebook or the feedback later. Iterative: any depth."""
    if isinstance(value, str):
        return _clean_str(value)
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in list(node):
                v = node[key]
                if isinstance(key, str) and _clean_str(key) is not key:
                    del node[key]
                    key = _clean_str(key)
                    node[key] = v
                if isinstance(v, str):
                    node[key] = _clean_str(v)
                elif isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, str):
                    node[i] = _clean_str(v)
                elif isinstance(v, (dict, list)):
                    stack.append(v)
    return value


# ---------------------------------------------------------------------------------------------

def static_findings(plan: AssignmentPlan, nb: dict) -> tuple[dict[str, str], list[str]]:
    """Borrowed answers (every binding of an exercise name, in every cell, in the order they
    run) and tampering (in the cells the learner wrote or changed)."""
    run_order, learner_cells = [], []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        meta = _nbg(cell)
        gid = meta.get("grade_id")
        if meta.get("grade") and not meta.get("solution"):
            continue  # grade cells are replaced by the source's
        if gid in plan.setup:
            run_order.append(plan.setup[gid])
            continue
        run_order.append(cell["source"])
        if cell["source"] not in plan.demo_sources:
            learner_cells.append(cell["source"])
    borrowed = tamper.borrowed_in_notebook(run_order, plan.all_exercises)
    trees = [t for t in (tamper.parse(s) for s in run_order) if t is not None]
    aliases = tamper._aliases(trees)
    tampering = []
    for source in learner_cells:
        for f in tamper.tampering(source, plan.all_exercises, aliases=aliases):
            tampering.append(f.detail)
    return borrowed, list(dict.fromkeys(tampering))


# The course's own heavy libraries (its requirements): the only names a learner's cells can make
# the sandbox load before their first cell. Anything else they import (pandas, a typo, a module
# of their own) is imported by their own cell, where a failure is their cell's error, never a
# sandbox that did not start.
PRELOADABLE = ("torch", "scipy", "sklearn")


def _imports_to_preload(cells: list[tuple[str, str]], already: list[str]) -> list[str]:
    """The course's heavy libraries (``PRELOADABLE``) the learner's cells import (``import torch``
    in notebook 01): loaded before the cell timer starts, as a warm Jupyter kernel would have
    them."""
    out = []
    for _, source in cells:
        tree = tamper.parse(source)
        for node in ast.walk(tree) if tree is not None else ():
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
            for name in names:
                root = name.split(".")[0]
                if root in PRELOADABLE and root not in already and root not in out:
                    out.append(root)
    return out


# Libraries the plan preloads because the course's notebook mentions them somewhere (torch: 1 to
# 3 s of every sandbox's start), but that a submission's own cells may never import.
LAZY = {"torch": ("torch", "attnlab.torch"), "sklearn": ("sklearn.svm",), "scipy": ("scipy",)}


def _preload(plan: AssignmentPlan, cells: list[tuple[str, str]], isolation: boundary.Isolation) -> list[str]:
    """What the sandbox imports before the learner's first cell. Under bubblewrap, a heavy library
    (``LAZY``) only when the job's cells import it (the checks' calls never need it: their inputs
    are numpy arrays); a cell that imports it another way (``__import__``) loads it itself, the
    tripwires arm on it all the same (``sandbox._ArmAfterImport``). Without the boundary the guard
    refuses native libraries once learner code runs, so everything the plan names loads first."""
    wanted = _imports_to_preload(cells, [])
    if not isolation.isolated:
        return plan.preload + [m for m in wanted if m not in plan.preload]
    skipped = {m for root, mods in LAZY.items() if root not in wanted for m in mods}
    out = [m for m in plan.preload if m not in skipped]
    return out + [m for m in wanted if m not in out and not any(o.split(".")[0] == m for o in out)]


def read(collected: Collected, plan: AssignmentPlan, lap=lambda stage: None) -> ReadResult:
    """Read the collected notebook; on a readable one, its static findings. ``lap(stage)`` is
    called after each step ("read", "static"), for timing."""
    nb, note = read_notebook(collected.notebook)
    lap("read")
    if nb is None:
        return ReadResult(None, note)
    with AST_LOCK:  # CPython 3.11's ast is not safe to use from several threads at once
        borrowed, tampering = static_findings(plan, nb)
    lap("static")
    return ReadResult(nb, note, borrowed, tampering)
