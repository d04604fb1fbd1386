"""Issue 40, the grading boundary's fourth round: what the learner names is never trusted, and no
learner reaches another.

- Every sink that shows an id or a learner string (the progress output, ``grading.log``, the
  batch's warnings and errors, ``grades.csv``, the row's detail, the export note) is walked with
  hostile ids and learner strings: newlines, carriage returns, ANSI CSI and OSC sequences, C1
  controls, line separators and bidirectional overrides. None of them may forge a line, move the
  cursor or reach a terminal raw; all go through :func:`attnlab.course.escape.shown`.
- The grader's own statuses are told from the learner's by identity (what the grader's harness
  made), never by a name or a text the learner can choose.
- Each kernel-held kind of state in :data:`attnlab.course.kernel_state.KERNEL_STATE` is isolated
  between two children of one warm worker: the next learner reads nothing the previous wrote.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from attnlab.course import escape, grade as batch, records
from attnlab.course.stages.handoff import CellVerdict, Result

A = "01_weighted_averages"

# A forged progress/log line, an OSC retitle, a CSI erase-line, a bare CR overwrite, C1 CSI,
# a line separator, a bidi override: every way a string moves the reader's view.
FORGED = f"zz_victim/{A}: graded 0/12 (1.0 s)"
HOSTILE = [
    f"x\n{FORGED}",
    f"x\r{FORGED}",
    f"x\r\n{FORGED}",
    "x\x1b]0;pwned title\x07y",
    "x\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
    "x\x1b[2K\x1b[1Gzz_victim",
    "x\x9b2Kzz",                 # the one-byte C1 form of ESC [
    "x\u2028zz_victim\u2029",
    "x\u0085zz",                  # NEL
    "x\u202egnp.exe",
    "x\x00\x08\x7f\x0b\x0c",
]
IDS = ["ann"] + HOSTILE

# What a terminal or a line-based reader would act on.
RAW = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _clean(text: str, lines: int | None = None) -> None:
    body = text[:-1] if text.endswith("\n") else text
    assert not RAW.search(body.replace("\n", "")), repr(text)
    assert "\t" not in body, repr(text)
    if lines is not None:
        assert body.count("\n") == lines - 1, repr(text)
    for line in body.split("\n"):
        assert not line.startswith("zz_victim"), repr(text)


def test_shown_is_one_printable_line():
    for s in HOSTILE:
        out = escape.shown(s)
        assert out.isprintable() and "\n" not in out, repr(out)
    assert escape.shown("ünï 学生 back\\slash") == "ünï 学生 back\\slash"  # printable text stays
    assert escape.shown("a\nb") == "a\\x0ab" and escape.shown(None) == ""
    assert escape.shown_lines("one\ntwo\x1b") == "one\n   | two\\x1b"


def _result(student, assignment=A, status="graded", detail=""):
    r = Result(student, assignment, f"{A}.ipynb", status, 1.0, 2.0, details=[detail] if detail else [])
    r.cells = [CellVerdict("c1", 1.0, 1.0, [], True), CellVerdict("c2", 0.0, 1.0, [detail or "wrong"], False)]
    return r


# -- the sinks --------------------------------------------------------------------------------

def _progress(tmp_path, s):
    stream, log = io.StringIO(), tmp_path / "grading.log"
    progress = batch.Progress(2, stream=stream, log=log, jobs=1)
    progress.step(_result(s, assignment=s, status=s))
    progress.step(_result("bob"))
    return [(stream.getvalue(), 2), (log.read_text(encoding="utf-8"), 4)]


def _faults(tmp_path, s):
    log = tmp_path / "faults.log"
    r = _result(s)
    r.faults = [f"the sandbox said {s}", "Traceback:\n  " + s]
    batch.log_faults(log, r)
    return [(log.read_text(encoding="utf-8"), None)]


def _batch_rules(tmp_path, s):
    with pytest.raises(batch.BatchError) as err:
        batch.check_batch([], [__import__("attnlab.course.grading", fromlist=["x"]).Submission(s, s, tmp_path)])
    return [(str(err.value), 2)]


def _csv(tmp_path, s):
    path = tmp_path / "grades.csv"
    rows = [{"student_id": s, "assignment": A, "notebook": f"{A}.ipynb", "status": s, "score": "1",
             "detail": f"softmax raised ValueError: {s}"},
            {"student_id": "bob", "assignment": A, "notebook": f"{A}.ipynb", "status": "graded", "score": "2",
             "detail": ""}]
    records.write_csv(path, rows, [])
    text = path.read_text(encoding="utf-8")
    parsed = list(csv.DictReader(io.StringIO(text, newline="")))
    assert len(parsed) == 2 and {r["student_id"] for r in parsed} == {escape.shown(s), "bob"}
    # the batch still finds the row it wrote for that student
    assert batch.rows_missing(path, [(s, A), ("bob", A)]) == []
    return [(text, 3)]


def _warnings(tmp_path, s, capsys):
    """The batch's warnings on folders that are no submission (a folder's name is the learner's)."""
    root = tmp_path / "course"
    (root / "solutions" / A).mkdir(parents=True)
    name = s.replace("/", "_").replace("\x00", "")  # (what a file system allows in a name)
    (root / "autograde" / "submitted" / name / f"not_{name}").mkdir(parents=True)
    try:
        batch._grade(root, None, "autograde/grades.csv", 1, batch.Limits(), None, False)
    except BaseException:  # noqa: BLE001 - nothing to grade: the warnings are the point
        pass
    err = capsys.readouterr().err
    assert "warning: skipped" in err, err
    return [(err, None)]


def _judged_notes(tmp_path, s):
    """A cell's error text (the learner's own exception message) as the row's detail."""
    from attnlab.course.plan import plan_assignment
    from attnlab.course.stages import judge
    from attnlab.course.stages.handoff import Limits, Measured, Ran, ReadResult
    import coursekit as ck

    plan = plan_assignment(ck.ROOT, A)
    run = type("R", (), {"killed": None, "filled": False, "returncode": 0})()
    results = tmp_path / "results"
    results.mkdir()
    log = [{"label": f"cell {s}", "error": f"ValueError: {s}", "notes": [s, f"note {s}"]},
           {"label": "cell 2", "error": f"PermissionError: {s} is refused while grading"}]
    ran = Ran(run, results, log, True)
    read = ReadResult.__new__(ReadResult)
    object.__setattr__(read, "tampering", []) if False else None
    read.tampering, read.borrowed = [], {}
    judged = judge.judge_run(plan, read, ran, Measured(), Limits())
    return [(n, 1) for n in judged.notes] + [(d, 1) for _, d in judged.statuses]


def _load_outcome(tmp_path, s):
    """A learner's exception message, read back from the sandbox's record (what a visible test's
    verdict quotes into the feedback and the CSV detail)."""
    import json

    from attnlab.course.stages import judge

    results = tmp_path / "res"
    results.mkdir()
    (results / "0000.json").write_text(json.dumps({"id": 0, "error": f"Value{s}Error", "message": s}))
    got = judge._load_outcome(results, 0)
    return [(got.error, 1), (got.message, 1)]


def _row_detail(tmp_path, s):
    """The stored row's detail (the grading store, the CSV, the report), from details that name a
    learner's file or quote a cell's error."""
    r = _result(s, detail=f"not copied into the sandbox: {s} (a symbolic link)")
    r.details.append(f"cell 3 (yours): ValueError: {s}")
    return [(r.row()["detail"], 1), (records.store_row(r)["detail"], 1)]


SINKS = ["progress", "faults", "batch_rules", "csv", "warnings", "judged_notes", "load_outcome", "row_detail"]


@pytest.mark.parametrize("sink", SINKS)
@pytest.mark.parametrize("s", HOSTILE, ids=[f"h{i}" for i in range(len(HOSTILE))])
def test_every_sink_escapes_hostile_strings(tmp_path, sink, s, capsys):
    fn = globals()["_" + sink]
    outputs = fn(tmp_path, s, capsys) if sink == "warnings" else fn(tmp_path, s)
    assert outputs, sink
    for text, lines in outputs:
        _clean(text, lines)


def test_cli_export_note_escapes_ids(monkeypatch, capsys, tmp_path):
    """``attnlab-course export --no-status-column`` names the flagged rows on the terminal."""
    from attnlab.course import cli, lms

    s = HOSTILE[0]
    monkeypatch.setattr(lms, "export", lambda *a, **k: (tmp_path / "out.csv", 1, [(s, s, s)], []))
    monkeypatch.setattr(cli._release, "course_root", lambda: tmp_path)
    try:
        cli.main(["export", "--format", "canvas", "--output", str(tmp_path / "o.csv"), "--no-status-column"])
    except SystemExit:
        pass
    err = capsys.readouterr().err
    assert "zz_victim" in err, err
    _clean(err)


# -- each learner alone: the kernel-held state between two children of one warm worker --------
#
# For every kind of state the kernel keeps beyond a process (kernel_state.KERNEL_STATE), learner A
# writes something there (and leaves a process behind to keep it alive where it can), and learner
# B, the next child of the same warm worker, looks for it. B prints one line per kind:
# ``STATE <kind> LEAK|none <detail>``.

PATHS = ("/tmp", "/job/work", "/job/results", "/dev/shm", "/dev/mqueue", "/var/tmp", "/run", "/job", "/home", "/")
PATHS = "PATHS = " + repr(tuple(f"{p.rstrip('/')}/attnlab-leak" for p in PATHS)) + "\n"

WRITE = PATHS + r'''
import ctypes, os, socket, struct, fcntl, signal, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ARCH = {"x86_64": {"add_key": 248, "keyctl": 250, "mq_open": 240},
        "aarch64": {"add_key": 217, "keyctl": 219, "mq_open": 180}}[os.uname().machine]
def tried(kind, r):
    print("WROTE", kind, r, ctypes.get_errno())
for path in PATHS:
    try:
        open(path, "w").write("secret")
        tried("files", path)
    except OSError as exc:
        tried("files", exc.errno)
tried("sysv_ipc", libc.shmget(0x5eed, 4096, 0o1666))
q = libc.msgget(0x5eed, 0o1666)
tried("sysv_ipc", libc.msgsnd(q, struct.pack("l6s", 1, b"secret"), 6, 0o4000) if q >= 0 else q)
tried("sysv_ipc", libc.semget(0x5eed, 1, 0o1666))
tried("posix_mqueue", libc.syscall(ARCH["mq_open"], b"attnlab-leak", os.O_CREAT | os.O_RDWR, 0o666, None))
for ring in (-4, -5, -3):  # user, user-session, session keyrings
    tried("keyrings", libc.syscall(ARCH["add_key"], b"user", b"attnlab-leak", b"secret", 6, ctypes.c_int(ring)))
tried("uts", libc.sethostname(b"attnlab-leak", 12))
for folder in ("/tmp", "/job/work", "/job/results", "/dev/shm", "/job"):  # the kept folders themselves
    try:
        os.setxattr(folder, "user.attnlab-leak", b"secret")
        tried("xattrs", folder)
    except OSError as exc:
        tried("xattrs", exc.errno)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    fcntl.ioctl(s, 0x8914, struct.pack("16sh14x", b"lo", 0))  # SIOCSIFFLAGS: lo down
    tried("net_devices", 0)
except OSError as exc:
    tried("net_devices", exc.errno)
if os.fork() == 0:  # stays behind: holds sockets, a timer, its name
    try:
        os.setsid()
        libc.prctl(15, b"attnlab-leak", 0, 0, 0)  # PR_SET_NAME
        a = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        a.bind(b"\0attnlab-leak")
        a.listen(8)
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        t.bind(("127.0.0.1", 47474))
        t.listen(8)
        def tick(*_):
            try:
                open("/tmp/attnlab-timer", "w").write("secret")
            except OSError:
                pass
        signal.signal(signal.SIGALRM, tick)
        signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
        for _ in range(1200):
            time.sleep(0.05)
    finally:
        os._exit(0)
time.sleep(0.3)
print("WROTE daemon", os.path.exists("/tmp/attnlab-timer"))
'''

READ = PATHS + r'''
import ctypes, errno, os, socket, struct, fcntl, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ARCH = {"x86_64": {"add_key": 248, "keyctl": 250, "mq_open": 240},
        "aarch64": {"add_key": 217, "keyctl": 219, "mq_open": 180}}[os.uname().machine]
def state(kind, leak, detail=""):
    print("STATE", kind, "LEAK" if leak else "none", detail)
time.sleep(0.3)  # (a timer left behind would have fired by now)
found = [p for p in PATHS if os.path.exists(p)]
state("files", found, found)
ids = (libc.shmget(0x5eed, 0, 0), libc.msgget(0x5eed, 0), libc.semget(0x5eed, 0, 0))
state("sysv_ipc", any(i >= 0 for i in ids), ids)
r = libc.syscall(ARCH["mq_open"], b"attnlab-leak", os.O_RDONLY, 0, None)
state("posix_mqueue", r >= 0, (r, ctypes.get_errno()))
seen = []
for ring in (-4, -5, -3):
    r = libc.syscall(ARCH["keyctl"], 10, ctypes.c_int(ring), b"user", b"attnlab-leak", 0)  # KEYCTL_SEARCH
    seen.append((r, ctypes.get_errno()))
state("keyrings", any(r >= 0 for r, _ in seen), seen)
state("uts", socket.gethostname() == "attnlab-leak", socket.gethostname())
marked = []
for folder in ("/tmp", "/job/work", "/job/results", "/dev/shm", "/job"):
    try:
        marked.append((folder, os.getxattr(folder, "user.attnlab-leak")))
    except OSError:
        pass
state("xattrs", marked, marked)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    flags = struct.unpack("16sh14x", fcntl.ioctl(s, 0x8913, struct.pack("16sh14x", b"lo", 0)))[1]
    state("net_devices", not flags & 1, flags)
except OSError as exc:
    state("net_devices", False, ("no lo", exc.errno))
names = []
for pid in os.listdir("/proc"):
    try:
        names.append(open(f"/proc/{pid}/comm").read().strip()) if pid.isdigit() else None
    except OSError:
        pass
state("processes", "attnlab-leak" in names, len(names))
reached = []
for family, address in ((socket.AF_UNIX, b"\0attnlab-leak"), (socket.AF_INET, ("127.0.0.1", 47474))):
    c = socket.socket(family, socket.SOCK_STREAM)
    c.settimeout(1)
    try:
        c.connect(address)
        reached.append(address)
    except OSError:
        pass
state("sockets", reached, reached)
state("timers", os.path.exists("/tmp/attnlab-timer"))
'''


def test_the_inventory_names_how_each_kind_is_isolated():
    from attnlab.course import kernel_state

    kinds = [k.kind for k in kernel_state.KERNEL_STATE]
    assert len(kinds) == len(set(kinds))
    assert all(k.isolation in kernel_state.ISOLATIONS and k.how for k in kernel_state.KERNEL_STATE), \
        kernel_state.KERNEL_STATE
    # every kind of the inventory has its attack here, and every attack a kind
    assert set(kinds) == set(re.findall(r'state\("(\w+)"', READ)), kinds


def test_no_kernel_held_state_reaches_the_next_learner(tmp_path, monkeypatch):
    """Learner A writes every kind of the inventory; learner B, the next child of the same warm
    worker, reads none of it."""
    import json

    import coursekit as ck
    from attnlab.course import boundary, grading, kernel_state, warm
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment

    ck.beneath_the_allow_list(monkeypatch)

    if not boundary.probe().isolated:
        pytest.skip(f"no OS boundary here: {boundary.probe().why}")
    monkeypatch.setenv(warm.ENV, "1")

    def submit(name, extra):
        nb = ck.completed_student_notebook(A)
        nb = json.loads(nb) if isinstance(nb, str) else nb
        nb["cells"].append({"cell_type": "code", "metadata": {}, "source": extra, "outputs": [],
                            "execution_count": None, "id": f"extra-{name}"})
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        return handoff.Submission(name, A, folder)

    plan = plan_assignment(ck.ROOT, A)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    try:
        first = grading.grade_submission(submit("a", WRITE), plan, handoff.Limits(), scratch, [ck.ROOT])
        pool = warm.pool_for(scratch)
        assert len(pool.free) == 1, (first.status, first.details)
        slot = pool.free[0].folder
        second = grading.grade_submission(submit("b", READ), plan, handoff.Limits(), scratch, [ck.ROOT])
        assert len(pool.free) == 1 and pool.free[0].folder == slot, "the second ran in another worker"
    finally:
        warm.close_pool(scratch)
    wrote = "\n".join(str(e.get("stdout", "")) for e in first.cell_log)
    assert "WROTE files /tmp/attnlab-leak" in wrote and "WROTE daemon True" in wrote, wrote
    out = "\n".join(str(e.get("stdout", "")) for e in second.cell_log)
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("STATE ")}
    assert set(lines) == {k.kind for k in kernel_state.KERNEL_STATE}, (out, second.cell_log)
    leaks = [line for line in lines.values() if line.split()[2] != "none"]
    assert not leaks, (leaks, wrote)



# -- the grader's own statuses, told by identity ------------------------------------------------
#
# The names and texts the grader acts on (a check's own exceptions such as TooMuchMemory or
# NotAModule, TimeoutError and MemoryError for a call the harness stopped, the guard's refusals,
# a cell the alarm stopped) are the learner's to choose as well. Each exercise below raises one
# of them as a class of its own (or the builtin where only the harness may mean it); each extra
# cell ends with one. None may become the grader's verdict or a status.

FORGED_EXERCISES = {
    "softmax": ("class TooMuchMemory(Exception):\n    pass\n\n"
                "def softmax(x, axis=-1):\n    raise TooMuchMemory(f'SECRET {x.shape} {x.ravel()[:3]}')\n"),
    "weighted_average": ("def weighted_average(values, weights):\n"
                         "    raise TimeoutError(f'SECRET {values.shape}: ran out of memory, did not finish in time')\n"),
    "mix_tokens": ("class MemoryError(Exception):\n    pass\n\n"
                   "class NotAModule(TypeError):\n    pass\n\n"
                   "def mix_tokens(X):\n    raise (MemoryError if X.ndim == 2 else NotAModule)(f'SECRET {X.shape}')\n"),
}
FORGED_CELLS = [
    "class _Timeout(Exception):\n    pass\nraise _Timeout('SECRET the cell ran longer')\n",
    "class MemoryError(Exception):\n    pass\nraise MemoryError('SECRET out of memory')\n",
    "raise PermissionError('reading /solutions is not allowed while grading')\n",
    "raise ValueError('SECRET ran out of memory; did not finish in time')\n",
]


def test_a_name_or_text_the_learner_chose_is_not_the_graders(tmp_path):
    import json

    import coursekit as ck
    from attnlab.course import grading
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment

    plan = plan_assignment(ck.ROOT, A)
    nb = ck.completed_student_notebook(A, FORGED_EXERCISES)
    nb = json.loads(nb) if isinstance(nb, str) else nb
    for i, source in enumerate(FORGED_CELLS):
        nb["cells"].append({"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
                            "execution_count": None, "id": f"forged-{i}"})
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    result = grading.grade_submission(handoff.Submission("s", A, folder), plan, handoff.Limits(), scratch, [ck.ROOT])
    lines = [line for v in result.cells for line in v.lines]
    text = "\n".join(lines + result.details)
    assert result.status == "graded", (result.status, result.details)
    for said in ("did not finish in time", "ran out of memory", "the check could not use your",
                 "tampering detected", "the memory measurement"):
        assert not any(said in line and "SECRET" not in line for line in lines), (said, lines)
    assert not any("SECRET" in line for line in lines if "hidden test" in line), lines
    assert all(e.get("status") not in ("timeout", "memory") for e in result.cell_log), result.cell_log
    # the learner's own words stay the learner's: quoted as raised by the code, on visible tests
    assert "softmax raised TooMuchMemory" in text and "weighted_average raised TimeoutError" in text, text


def test_the_harness_keeps_the_graders_names_for_its_own_objects():
    """The harness's side of it, in-process: a check's own exception (the very class) keeps its
    name; a learner's class of that name, a subclass of the real one, a TimeoutError the code
    raises, a class called MemoryError that is not Python's, are renamed; Python's MemoryError and
    the learner's ordinary errors are left as they are (a MemoryError only where an allocation failed). A refusal counts only as the object the
    guard raised."""
    from attnlab.checks._core import Case, call
    from attnlab.checks.efficient_attention import TooMuchMemory
    from attnlab.checks.self_attention import NotAModule
    from attnlab.course import sandbox

    learner: dict = {"__name__": "__main__"}
    exec("class TooMuchMemory(Exception):\n    pass\n"  # noqa: S102 - the learner's cell
         "class MemoryError(Exception):\n    pass\n", learner)

    class Sub(NotAModule):
        pass

    def raising(exc):
        def fn(x):
            raise exc
        return fn

    cases = [(TooMuchMemory("the check's own"), "TooMuchMemory"),
             (NotAModule("the check's own"), "NotAModule"),
             (learner["TooMuchMemory"]("SECRET"), "TooMuchMemory (from your code)"),
             (Sub("SECRET"), "Sub (from your code)"),  # (its name joined CheckRaised.names)
             (learner["MemoryError"]("SECRET"), "MemoryError (from your code)"),
             (TimeoutError("SECRET"), "TimeoutError (from your code)"),
             (MemoryError(), "MemoryError (from your code)"),  # a `raise` of the learner's: no allocation failed
             (ValueError("mine"), "ValueError")]
    for exc, name in cases:
        got = call(raising(exc), Case((1.0,)), sandbox._own_names(None))
        assert got.error == name, (exc, got)
    def allocates(x):  # an allocation that fails: Python's MemoryError, the grader's "out of memory"
        return bytearray(1 << 62)

    assert call(allocates, Case((1.0,)), sandbox._own_names(None)).error == "MemoryError"
    # a subclass of a check's class under the check's name: renamed too
    fake = type("NotAModule", (NotAModule,), {})
    assert call(raising(fake("x")), Case((1.0,)), sandbox._own_names(None)).error == "NotAModule (from your code)"

    real = sandbox._refusal(f"reading /solutions {sandbox.TAMPER_MARK}")
    assert sandbox.refused(real) == "tamper"
    assert sandbox.refused(PermissionError(f"reading /solutions {sandbox.TAMPER_MARK}")) == ""
    assert sandbox.refused(type(real)(f"x {sandbox.TAMPER_MARK}")) == ""
    real.args = (f"x {sandbox.NOTE_MARK}",)  # a real refusal reworded by the learner stays tampering
    assert sandbox.refused(real) == "tamper"


def test_a_verdict_quoting_the_learner_sets_no_status(tmp_path):
    """The judge's statuses come from what it decided (CellVerdict.stopped), not from the words of
    a verdict, which quote the learner's exception on a visible test."""
    import json

    import coursekit as ck
    from attnlab.course.plan import plan_assignment
    from attnlab.course.stages import judge
    from attnlab.course.stages.handoff import Limits, Measured, Ran, ReadResult

    plan = plan_assignment(ck.ROOT, A)
    results = tmp_path / "results"
    results.mkdir()
    calls = [cc for cell in plan.grade_cells for cc in cell.calls]
    for cc in calls:
        for i in range(len(cc.spec.cases)):
            (results / f"{cc.first_id + i:04d}.json").write_text(json.dumps(
                {"id": cc.first_id + i, "error": "ValueError",
                 "message": "ran out of memory on a small input; did not finish in time: look for an endless loop"}))
    run = type("R", (), {"killed": None, "filled": False, "returncode": 0})()
    read = ReadResult.__new__(ReadResult)
    read.tampering, read.borrowed = [], {}
    judged = judge.judge_run(plan, read, Ran(run, results, [], True), Measured(), Limits())
    assert judged.statuses == [], judged.statuses
    assert any("ran out of memory" in line for v in judged.cells for line in v.lines)  # quoted, that is all
    # the harness's own verdicts still set them
    (results / f"{calls[0].first_id:04d}.json").write_text(json.dumps(
        {"id": calls[0].first_id, "error": "TimeoutError", "message": "did not finish in 10 s"}))
    judged = judge.judge_run(plan, read, Ran(run, results, [], True), Measured(), Limits())
    assert [s for s, _ in judged.statuses] == ["timed out"], judged.statuses


# -- collection refuses hard links ------------------------------------------------------------

def test_a_hard_link_is_refused_wherever_collection_reads(tmp_path):
    """A notebook that is a second name of the source in solutions/ scores nothing and its row
    says why; a hard-linked helper module in a sub-folder and a hard-linked timestamp are left out
    as a symbolic link is; a file whose other name was removed (one name left) is the learner's."""
    import coursekit as ck
    from attnlab.course import grading
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment
    from attnlab.course.stages.collect import copy_submission

    plan = plan_assignment(ck.ROOT, A)
    folder = tmp_path / "s"
    folder.mkdir()
    os_link = __import__("os").link
    os_link(ck.solution_path(A), folder / f"{A}.ipynb")
    result = grading.grade_submission(handoff.Submission("s", A, folder), plan, handoff.Limits(),
                                      tmp_path, [ck.ROOT])
    assert result.score == 0 and any("hard link" in d for d in result.details), (result.status, result.details)

    sub = tmp_path / "t"
    (sub / "helpers").mkdir(parents=True)
    (tmp_path / "other.py").write_text("ANSWER = 1\n")
    os_link(tmp_path / "other.py", sub / "helpers" / "mine.py")
    os_link(tmp_path / "other.py", sub / "timestamp.txt")
    (tmp_path / "gone.py").write_text("x = 1\n")
    os_link(tmp_path / "gone.py", sub / "kept.py")
    (tmp_path / "gone.py").unlink()
    skipped = copy_submission(sub, tmp_path / "copy")
    assert sorted(p.name for p in (tmp_path / "copy").rglob("*") if p.is_file()) == ["kept.py"], skipped
    assert sum("hard link" in s for s in skipped) == 2, skipped


def test_a_checks_own_timer_keeps_its_name():
    """A TimeoutError the checks' own code raises (the in-notebook memory measurement's timer) is
    the grader's, a TimeoutError the learner's code raises is not."""
    from attnlab.checks import _memory
    from attnlab.checks._core import Case, call
    from attnlab.course import borrowing, sandbox

    saved = dict(borrowing._LIBRARY_CODE), set(borrowing._SNAPSHOT_MODULES)
    borrowing._snapshot_library_code()  # (what the harness does before the learner's first cell)
    try:
        def invoke(fn, x):
            return _memory.peak_in_child(lambda: fn(x), timeout=0.2, warmup=lambda: None)

        def slow(x):
            import time
            time.sleep(5)

        got = call(slow, Case((1.0,)), sandbox._own_names(invoke))
        assert got.error == "TimeoutError", got
    finally:
        borrowing._LIBRARY_CODE.clear()
        borrowing._LIBRARY_CODE.update(saved[0])
        borrowing._SNAPSHOT_MODULES.clear()
        borrowing._SNAPSHOT_MODULES.update(saved[1])
