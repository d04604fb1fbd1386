"""Stage 5, judge: the plain answers that came back, against the references; the statuses.

Boundary rules owned here: what the sandbox wrote is data, read with bounds (an answer at most
``RESULT_SLACK`` times the reference's size, :class:`AnswerBound`; JSON cleaned) and judged by
the checks in the grader's process; a hidden test's message never shows its inputs. A
submission's status is one of ``STATUSES``, in this order of precedence: tampering detected
(every grade cell at 0 when the code changed a library function or the grader; the exercise's
own cells when it borrowed the library's answer), then what stopped the run (timed out, out of memory, kernel died), then graded; late work
(:func:`mark_late`) after the due date.
"""
from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attnlab.checks import Outcome

from .. import wire
from ..escape import shown
from ..plan import AssignmentPlan
from ..wire import decode
from .collect import read_regular
from .handoff import CellVerdict, GraderOutcome, Judged, Limits, Measured, Ran, ReadResult, Result
from .read import MAX_RESULT_BYTES, _load_json


SMALL_RESULT_BYTES = 2**20   # an answer this small is read without asking the reference
RESULT_SLACK = 16            # a wrong answer may be this many times the reference's size


@dataclass(frozen=True)
class AnswerBound:
    """What the reference's answer to one case looks like: the most bytes and dimensions a
    learner's answer to it may declare before the grader allocates anything for it."""
    nbytes: int
    ndim: int

    @staticmethod
    def of(spec, index: int) -> "AnswerBound":
        try:
            ref = spec.reference_outcome(index)
        except Exception:  # noqa: BLE001 - a check without a plain reference: the general caps
            return AnswerBound(MAX_RESULT_BYTES, 32)
        arrays = _leaf_arrays(ref.value) if ref.error is None else []
        if not arrays:
            return AnswerBound(SMALL_RESULT_BYTES, 8)
        ref_bytes = sum(a.size * 8 for a in arrays)
        return AnswerBound(min(MAX_RESULT_BYTES, max(SMALL_RESULT_BYTES, RESULT_SLACK * ref_bytes)),
                           max(a.ndim for a in arrays) + 2)


def _leaf_arrays(value, depth: int = 0) -> list[np.ndarray]:
    if isinstance(value, (tuple, list)) and depth < 8:
        return [a for v in value for a in _leaf_arrays(v, depth + 1)]
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - an object: no array
        return []
    return [arr] if arr.dtype.kind in "biufc" else []


def _load_arrays(path: Path, limit: int = MAX_RESULT_BYTES, bound=None) -> dict[str, np.ndarray]:
    """The arrays of a results ``.npz``. Every member's header is read first and checked (a
    plain dtype, float64 or bool as the sandbox writes them; no more dimensions and bytes than
    ``bound()``, the reference's answer with room for a wrong shape, allows; ``limit`` in all)
    before anything is allocated for any array's data."""
    import zipfile

    from numpy.lib import format as npformat

    raw = read_regular(path, limit + (1 << 20))
    out, headers = {}, []
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        members = archive.infolist()
        if len(members) > 64:
            raise ValueError("too many arrays")
        for info in members:  # headers only
            if not info.filename.endswith(".npy") or info.file_size > limit:
                raise ValueError(f"unexpected member {info.filename[:40]!r}")
            with archive.open(info) as fh:
                version = npformat.read_magic(fh)
                if version == (1, 0):
                    shape, fortran, dtype = npformat.read_array_header_1_0(fh)
                elif version == (2, 0):
                    shape, fortran, dtype = npformat.read_array_header_2_0(fh)
                else:
                    raise ValueError(f"unsupported .npy version {version}")
            if dtype not in (np.dtype(np.float64), np.dtype(bool)) or len(shape) > 32:
                raise ValueError(f"unexpected array type {dtype} of {len(shape)} dimensions")
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize if shape else dtype.itemsize
            if nbytes < 0 or nbytes > info.file_size:
                raise ValueError("the arrays are larger than they say")
            headers.append((info, shape, fortran, dtype, nbytes))
        total = sum(h[4] for h in headers)
        if total > limit:
            raise ValueError("the arrays are larger than they say")
        ndim = max((len(h[1]) for h in headers), default=0)
        if bound is not None and (total > SMALL_RESULT_BYTES or ndim > 8):
            b = bound()
            if total > b.nbytes or ndim > b.ndim:
                raise ValueError(f"the arrays are larger than they say: {total} bytes in {ndim} dimensions "
                                 f"where the reference's answer allows {b.nbytes} in {b.ndim}")
        for info, shape, fortran, dtype, nbytes in headers:
            with archive.open(info) as fh:  # past the header again, then the data
                version = npformat.read_magic(fh)
                (npformat.read_array_header_1_0 if version == (1, 0) else npformat.read_array_header_2_0)(fh)
                data = fh.read(nbytes + 1)
            if len(data) != nbytes:
                raise ValueError("the array data does not match its header")
            out[info.filename[:-4]] = np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")
    return out


def _kind(kind, depth: int = 0):
    """The returned value's kind as the sandbox wrote it (see ``checks._core.kind_of``), kept only
    when it has that form: a short string, or ``[container, [kinds]]``; anything else is None
    (no type rule applied, the values are still compared)."""
    if isinstance(kind, str) and len(kind) <= 32:
        return kind
    if (isinstance(kind, list) and len(kind) == 2 and kind[0] in ("tuple", "list") and isinstance(kind[1], list)
            and len(kind[1]) <= 16 and depth < 5):
        return [kind[0], [_kind(k, depth + 1) for k in kind[1]]]
    return None


def _load_outcome(results: Path, call_id: int, bound=None) -> Outcome | None:
    """The answer the sandbox wrote for one call; ``bound`` (a function returning an
    :class:`AnswerBound`) says how large it may be."""
    meta_path, arr_path = results / f"{call_id:04d}.json", results / f"{call_id:04d}.npz"
    try:
        record = _load_json(meta_path)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - a forged or broken result file
        return Outcome(error="BrokenResult", message=f"the result could not be read ({type(exc).__name__})")
    try:
        if not isinstance(record, dict):
            raise ValueError("not a record")
        value = None
        if record.get("error") is None:
            try:
                arrays = _load_arrays(arr_path, bound=bound)
            except ValueError as exc:
                if "larger" in str(exc) or "MiB" in str(exc):
                    return Outcome(error="ResultTooLarge", message="the result is far larger than the expected answer")
                raise
            value = decode(record.get("value", {"kind": "none"}), arrays)
        error = record.get("error")  # the learner's own words (its exception's name and text): data,
        # one line each wherever a verdict quotes them (escape.shown)
        return Outcome(value=value, error=shown(error)[:100] if error is not None else None,
                       message=shown(record.get("message", ""))[:2000], mutated=bool(record.get("mutated", False)),
                       kind=_kind(record.get("kind")), own=record.get("own") is True,
                       bases=tuple(str(b)[:40] for b in (record.get("bases") or [])[:16]
                                   if isinstance(record.get("bases"), list)))
    except Exception as exc:  # noqa: BLE001 - a forged or broken result file
        return Outcome(error="BrokenResult", message=f"the result could not be read ({type(exc).__name__})")


def judge(plan: AssignmentPlan, results: Path, stopped: str, borrowed: dict[str, str],
          outcomes: dict[int, Outcome] | None = None) -> list[CellVerdict]:
    """Each grade cell's score from the sandbox's answers (full points only if every case of
    every check in it is right); ``outcomes``: answers the grader measured itself (memory)."""
    outcomes = outcomes or {}
    verdicts = []
    for cell in plan.grade_cells:
        lines, passed, stopped_by = [], True, ""
        for cc in cell.calls:
            if cc.learner_name in borrowed:
                lines = [f"{cc.learner_name}: no points: {borrowed[cc.learner_name]}. "
                         "Write it yourself from the equation; the library version is what it is checked against."]
                passed = False
                break
            message = None
            for i in range(len(cc.spec.cases)):
                outcome = outcomes.get(cc.first_id + i) or _load_outcome(
                    results, cc.first_id + i, bound=lambda spec=cc.spec, i=i: AnswerBound.of(spec, i))
                if outcome is None:
                    message = (f"{cc.learner_name} could not be checked: the notebook stopped before "
                               f"the grader could call it ({stopped or 'no answer came back'}).")
                    break
                # (the sandbox renames a learner's own TimeoutError and MemoryError look-alikes:
                # sandbox._own_names; these are the harness's verdicts on the call)
                if outcome.error == "TimeoutError":
                    message = f"{cc.learner_name} did not finish in time: look for an endless loop."
                    stopped_by = "timeout"
                    break
                if outcome.error == "MemoryError":
                    message = f"{cc.learner_name} ran out of memory on a small input."
                    stopped_by = "memory"
                    break
                message = _judged(cc, i, outcome, grader_made=isinstance(outcome, GraderOutcome),
                                  others=_others(cc, outcomes, results))
                if message:
                    break
            if message:
                lines, passed = [message], False
                break
            if not cc.hidden:
                lines.append(cc.spec.success())
        verdicts.append(CellVerdict(cell.grade_id, cell.points if passed else 0.0, cell.points, lines, passed,
                                    stopped_by if not passed else ""))
    return verdicts


# A check's verdict depends on the case and the answer only (CheckSpec.judge: "the same message
# for the same answer"), and most submissions of a class give the same answers: each verdict is
# worked out once per batch (the reference run once per case), keyed by a digest of the answer.
_VERDICTS: dict[tuple, tuple] = {}
_VERDICTS_MAX = 200_000


def _digest(value, h, depth: int = 0) -> None:
    if isinstance(value, tuple) and depth < 16:
        h.update(b"(%d" % len(value))
        for v in value:
            _digest(v, h, depth + 1)
        h.update(b")")
    elif isinstance(value, np.ndarray):
        h.update(f"a{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, wire.Opaque):
        h.update(b"o" + value.type_name.encode("utf-8", "backslashreplace"))
    else:
        h.update(b"r" + repr(value).encode("utf-8", "backslashreplace"))


NOT_PROBED = "NotProbed"  # (an input the grader did not call the learner's code on)


def _others(cc, outcomes: dict, results: Path):
    """The learner's answers to the other cases of ``cc``'s check, by case: what the verdict
    needs to name a mistake only where it is the learner's code on every case (the in-process
    check re-runs the learner's code; the grader reads the answers the sandbox already wrote).
    An input the grader never called it on comes back as a ``NotProbed`` outcome."""
    index = {id(case): j for j, case in enumerate(cc.spec.cases)}

    def probe(case) -> Outcome:
        j = index.get(id(case))
        if j is None:
            return Outcome(error=NOT_PROBED)
        got = outcomes.get(cc.first_id + j) or _load_outcome(
            results, cc.first_id + j, bound=lambda spec=cc.spec, j=j: AnswerBound.of(spec, j))
        return got if got is not None and not isinstance(got, GraderOutcome) else Outcome(error=NOT_PROBED)
    return probe


def _judged(cc, i: int, outcome: Outcome, grader_made: bool = False, others=None) -> str | None:
    """``cc``'s verdict on case ``i`` for ``outcome`` (cached for the same answer);
    ``grader_made``: the outcome is one the grader measured itself (stages.measure), told by
    identity, never by the error's name, which learner code chooses. A verdict that names a
    catalogued mistake is confirmed against the learner's other answers (``others``), which the
    cache key does not hold: that one is worked out again."""
    import hashlib

    h = hashlib.sha256()
    h.update(repr((outcome.error, outcome.message, bool(outcome.mutated), outcome.kind)).encode("utf-8", "backslashreplace"))
    _digest(outcome.value, h)
    key = (id(cc.spec), cc.hidden, cc.learner_name, cc.check, i, grader_made, h.digest())
    hit = _VERDICTS.get(key)
    if hit is not None and hit[0] is cc.spec:  # (the spec is kept in the entry: its id is not reused)
        message, named = hit[1], hit[2]
    else:
        message, named = _verdict_message(cc, i, outcome, grader_made, None)
        if len(_VERDICTS) >= _VERDICTS_MAX:
            _VERDICTS.clear()
        _VERDICTS[key] = (cc.spec, message, named)
    if named and others is not None and not grader_made:
        message, _ = _verdict_message(cc, i, outcome, grader_made, others)
    return message


def _verdict_message(cc, i: int, outcome: Outcome, grader_made: bool, others) -> tuple[str | None, bool]:
    """The page's message for case ``i`` and whether it names a catalogued mistake."""
    if cc.hidden:
        message, named = _hidden_verdict(cc, i, outcome, grader_made, others)
        return _for_the_page(message), named
    verdict = cc.spec.verdict(i, outcome, others)
    if verdict is None:
        return None, False
    return _for_the_page(verdict[0]), verdict[1] is not None


def _for_the_page(message: str | None) -> str | None:
    """A check's message as a graded page shows it: what the learner can do in a notebook session
    (call ``attnlab.checks.explain``, run the check a second time for the code-level fix) means
    nothing on a page the grader wrote, so those words go."""
    if message is None:
        return None
    lines = [line for line in message.splitlines() if not line.startswith("(For the code-level fix")]
    return "\n".join(lines).replace(", then run this check again.", ".").replace(
        " and run this check again.", ".")


def _hidden_message(cc, i: int, outcome: Outcome, grader_made: bool = False, others=None) -> str | None:
    """A hidden test's verdict, told without anything of that call: the check and the mistake
    it names, never the learner's exception text or type, the shapes or values of its answer,
    nor the hidden inputs (a function that raises ``ValueError(repr(x))`` gets nothing back)."""
    return _hidden_verdict(cc, i, outcome, grader_made, others)[0]


def _hidden_verdict(cc, i: int, outcome: Outcome, grader_made: bool = False, others=None) -> tuple[str | None, bool]:
    """:func:`_hidden_message`, and whether it names a catalogued mistake."""
    verdict = cc.spec.verdict(i, outcome, others)
    if verdict is None:
        return None, False
    message, mistake = verdict
    name = cc.learner_name
    if outcome.error == "NotImplementedError" or (outcome.error == "NameError" and message.startswith(
            f"{cc.spec.exercise} is not defined")):
        return message, False  # the check's own words, nothing of the call in them
    if grader_made:  # the grader's own measurement, made outside the learner's process (an
        return message, False  # exception the learner names TooMuchMemory is the learner's, below)
    what = (f"{name} raised an error on a hidden test ({cc.check})" if outcome.error is not None
            else f"{name} does not match the reference on a hidden test ({cc.check})")
    if mistake is not None:
        return f"{what}: this looks like a known mistake: {mistake.name}.", True
    return (f"{what}. Hidden tests show nothing of their inputs or of what your code did with them: "
            "try your function on inputs of your own (other shapes, sizes and values) and compare "
            "with the equation."), False


def mark_late(result: Result, timestamp: dt.datetime | None, duedate: dt.datetime | None,
              plugin=None) -> None:
    """A graded submission handed in after the due date becomes ``late``; any submission handed
    in late loses the penalty ``plugin`` gives (the course's late-submission plugin,
    :func:`attnlab.course.late.load`; None or nbgrader's default: nothing), never more than its
    score. The penalty goes into ``result.late_penalty`` and out of ``result.score``; the cells
    keep their scores, as nbgrader's gradebook does."""
    if timestamp is None or duedate is None or timestamp <= duedate:
        return
    # (imported here: late imports nbgrader, slow to import, and only a late submission needs it)
    from .. import late

    result.late_penalty = late.penalty(plugin, result.student, result.score, (timestamp - duedate).total_seconds())
    note = f"submitted {_human(timestamp - duedate)} after the due date"
    if result.late_penalty > 0:
        result.score = max(0.0, result.score - result.late_penalty)
        note += f": late penalty {result.late_penalty:g} point(s) ({late.describe(plugin)})"
    if result.status == "graded":
        result.status = "late"
        result.details.insert(0, note)
    elif result.late_penalty > 0:
        result.details.insert(0, note)


def _human(delta: dt.timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} hours" if hours < 48 else f"{hours / 24:.1f} days"


def judge_run(plan: AssignmentPlan, read: ReadResult, ran: Ran, measured: Measured, limits: Limits) -> Judged:
    """The verdicts of one run and its statuses: what stopped the sandbox (its wall-clock budget,
    memory, an early exit, a full writable space), what each cell reported, the answers judged
    (with the measured ones), then tampering first of all."""
    run = ran.sandbox
    statuses: list[tuple[str, str]] = []
    notes: list[str] = []
    if run.killed == "timeout":
        statuses.append(("timed out", f"the notebook did not finish within {limits.notebook_seconds:g} s"))
    elif run.killed == "memory":
        statuses.append(("out of memory", f"the notebook used more than {limits.memory_mib} MiB"))
    elif not ran.finished:
        where = shown(ran.cell_log[-1]["label"]) if ran.cell_log else "its first cell"
        statuses.append(("kernel died", f"the notebook's process ended (exit code {run.returncode}) "
                                        f"after {where}, before grading finished"))
    if run.filled:
        statuses.append(("out of memory", f"the notebook filled its writable space ({limits.space_mib} MiB "
                                          f"and {limits.space_files} files for its folder and /tmp together): "
                                          "writing beyond it failed"))
    tampering = list(read.tampering)
    for entry in ran.cell_log:  # what a cell raised is the learner's text: one line in the detail
        label, error = shown(entry["label"]), shown(entry.get("error") or "")
        cell_notes = entry.get("notes")
        if isinstance(cell_notes, list) and cell_notes:
            notes.append(f"{label}: note: " + ", ".join(shown(n)[:100] for n in cell_notes[:5]))
        if entry.get("status") == "timeout":
            statuses.append(("timed out", f"{label} ran longer than {limits.cell_seconds:g} s"))
        elif entry.get("status") == "memory":
            statuses.append(("out of memory", f"{label} ran out of memory"))
        elif entry.get("refused") == "tamper":  # the guard's own refusal (sandbox.refused: by identity,
            tampering.append(f"{label}: {error[:300]}")  # never the text, which the learner can raise)
        elif entry.get("refused") == "note":
            notes.append(f"{label}: note: {error[:300]}")
        elif error and not label.startswith("demo cell"):
            notes.append(f"{label}: {error[:200]}")
    stopped = statuses[0][1] if statuses else ""
    borrowed = dict(read.borrowed)
    for name, why in ran.borrowed.items():
        borrowed.setdefault(name, why)
    cells = judge(plan, ran.results, stopped, borrowed, measured.outcomes)
    if tampering:  # the library or the grader changed beside the checks: no verdict can be trusted
        cells = untrusted(cells, tampering[0])
    tampering += borrowed.values()
    if tampering:
        statuses.insert(0, ("tampering detected", "; ".join(dict.fromkeys(tampering))))
    def which(stop: str) -> str:  # the exercises (the course's names) of the cells the harness stopped
        ids = {v.grade_id for v in cells if v.stopped == stop}
        names = dict.fromkeys(cc.learner_name for g in plan.grade_cells if g.grade_id in ids for cc in g.calls)
        return ", ".join(names) or "an exercise"

    if any(v.stopped == "memory" for v in cells) and not statuses:  # (the verdict's field, not its words,
        statuses.append(("out of memory", f"{which('memory')} ran out of memory"))  # which may quote the learner)
    if any(v.stopped == "timeout" for v in cells) and not statuses:
        statuses.append(("timed out", f"{which('timeout')} did not finish in time"))
    return Judged(cells, sum(v.score for v in cells), statuses, notes)


def untrusted(cells: list[CellVerdict], why: str) -> list[CellVerdict]:
    """Every grade cell at 0 points: the notebook changed a library function or the grader, or
    reached for the course, so the checks that ran beside it prove nothing (an exercise that only
    borrowed the library's answer loses its own points instead, in :func:`judge`)."""
    note = (f"no points: tampering detected ({why[:200]}). The checks ran beside code that changed the "
            "library or the grader, or reached for the course, so none of their verdicts counts.")
    return [CellVerdict(v.grade_id, 0.0, v.max_score, ([] if v.passed else v.lines) + [note], False, v.stopped)
            for v in cells]


def _grader_error(result: Result, stage: str, exc: Exception) -> None:
    """A failure of the grader's own while ``stage`` for one submission: that row says so, the
    batch goes on."""
    result.status, result.score = "grader error", 0.0
    result.cells = [CellVerdict(v.grade_id, 0.0, v.max_score, v.lines, False, v.stopped) for v in result.cells]
    result.details.insert(0, f"internal error while {stage}: {type(exc).__name__}: {str(exc)[:200]}")
