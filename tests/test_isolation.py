"""The pieces of trusted grading, fast: every grade cell can be split across the two processes,
the sandbox's answers are plain data, and the static checks flag cheats but not the solutions."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import coursekit as ck
from attnlab.course import tamper
from attnlab.course.plan import PlanError, job_calls, parse_grade_cell, plan_assignment
from attnlab.course.wire import Opaque, decode, encode


@pytest.mark.parametrize("assignment", ck.assignments())
def test_every_grade_cell_can_be_graded_in_isolation(assignment):
    plan = plan_assignment(ck.ROOT, assignment)
    source = ck.load(ck.solution_path(assignment))
    assert [c.grade_id for c in plan.grade_cells] == list(ck.grade_cells(source))
    assert plan.max_score == sum(ck.max_points(source).values())
    calls = job_calls(plan)
    pickle.loads(pickle.dumps(calls))  # the inputs travel to the sandbox by pickle
    assert sorted(c["id"] for c in calls) == list(range(len(calls)))
    for cell in plan.grade_cells:
        assert any(cc.hidden for cc in cell.calls) and any(not cc.hidden for cc in cell.calls)


@pytest.mark.parametrize("assignment", ck.assignments())
def test_no_false_alarm_on_the_solutions(assignment):
    plan = plan_assignment(ck.ROOT, assignment)
    nb = ck.load(ck.solution_path(assignment))
    for gid, cell in ck.solution_cells(nb).items():
        if cell["cell_type"] == "code":
            assert tamper.borrowed(cell["source"], plan.exercises[gid]) == []
            assert tamper.tampering(cell["source"], plan.all_exercises) == []


@pytest.mark.parametrize("source,expected", [
    ("def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)", "attnlab.softmax"),
    ("def softmax(x, axis=-1):\n    return torch.softmax(torch.tensor(x), axis).numpy()", "torch.softmax"),
    ("from scipy.special import softmax", "softmax"),
    ("def softmax(x, axis=-1):\n    from scipy.special import logsumexp\n    return np.exp(x - logsumexp(x, axis, keepdims=True))", "logsumexp"),
])
def test_borrowed_answers_are_flagged(source, expected):
    findings = tamper.borrowed(source, ["softmax"])
    assert findings and expected in findings[0].detail


@pytest.mark.parametrize("source,expected", [
    ("np.allclose = lambda *a, **k: True", "np.allclose"),
    ("import numpy\nnumpy.testing.assert_allclose = print", "numpy.testing.assert_allclose"),
    ("get_ipython().input_transformers_post.append(f)", "input transformers"),
    ("get_ipython().set_custom_exc((Exception,), h)", "exception handler"),
    ("import sqlite3", "sqlite3"),
    ("import attnlab.checks as c\nc.check_softmax = print", "attnlab.checks"),
    ("import builtins\nbuiltins.print = len", "builtins"),
    ("import sys\nsys.modules['attnlab'] = None", "sys.modules"),
    ("%matplotlib inline\nnp.isclose = None", "np.isclose"),
])
def test_tampering_is_flagged(source, expected):
    findings = tamper.tampering(source, ["softmax"])
    assert any(expected in f.detail for f in findings), findings


@pytest.mark.parametrize("source", [
    "%matplotlib inline\nimport numpy as np\nx = np.linspace(0, 1, 5)\nplt.plot(x, x ** 2)\nplt.show()",
    "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = torch.nn.Linear(2, 2)",
    "model.eval()\nresults = {'a': 1}\nresults['b'] = 2",
])
def test_ordinary_code_is_not_flagged(source):
    assert tamper.tampering(source, ["softmax"]) == []


def test_results_come_back_as_plain_arrays(tmp_path):
    value = (np.arange(6.0).reshape(2, 3), np.array([True, False]), None, "a string", 3.5)
    arrays: dict = {}
    desc = encode(value, arrays)
    np.savez(tmp_path / "r.npz", **arrays)
    with np.load(tmp_path / "r.npz", allow_pickle=False) as loaded:
        back = decode(desc, loaded)
    np.testing.assert_array_equal(back[0], value[0])
    np.testing.assert_array_equal(back[1], value[1])
    assert back[2] is None and isinstance(back[3], Opaque) and float(back[4]) == 3.5


def test_unsupported_grade_cells_are_refused():
    with pytest.raises(PlanError):
        parse_grade_cell("g", '"""Check that ..."""\nassert softmax(1) == 1')
    with pytest.raises(PlanError):
        parse_grade_cell("g", "check_softmax(softmax, hidden=flag)")
    assert parse_grade_cell("g", '"""Check."""\ncheck_softmax(softmax)\n### BEGIN HIDDEN TESTS\n'
                                 'check_softmax(softmax, hidden=True)\n### END HIDDEN TESTS') == [
        ("check_softmax", "softmax", False), ("check_softmax", "softmax", True)]


# --- issue 11: the trusted side takes nothing on trust; static and run-time borrowed answers ----

import io
import json
import os
import sys
import time
import zipfile

from attnlab.course import grading
from attnlab.course.stages import read as read_stage
from attnlab.course.stages import judge as judge_stage
from attnlab.course.stages import collect as collect_stage
from attnlab.course.borrowing import _borrowed_object


@pytest.mark.parametrize("assignment", ck.assignments())
def test_no_false_alarm_on_whole_solution_notebooks(assignment):
    plan = plan_assignment(ck.ROOT, assignment)
    nb = ck.load(ck.solution_path(assignment))
    borrowed, tampering = read_stage.static_findings(plan, nb)
    assert borrowed == {} and tampering == []


@pytest.mark.parametrize("sources,exercise,expected", [
    (["def softmax(x, axis=-1):\n    return x", "def softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)"],
     "softmax", "attnlab.softmax"),
    (["def softmax(x, axis=-1):\n    return x", "from attnlab import softmax"], "softmax", "imported from attnlab"),
    (["from attnlab import *"], "softmax", "import *"),
    (["%%time\ndef softmax(x, axis=-1):\n    return attnlab.softmax(x, axis)"], "softmax", "attnlab.softmax"),
    (["import scipy.special\ndef softmax(x, axis=-1):\n    return np.exp(scipy.special.log_softmax(x, axis))"],
     "softmax", "log_softmax"),
    (["class MultiHeadAttention(at.MultiHeadAttention):\n    pass"], "MultiHeadAttention", "subclasses"),
    (["from torch import nn\nclass MultiHeadAttention(nn.MultiheadAttention):\n    pass"], "MultiHeadAttention",
     "subclasses"),
    (["softmax = at.softmax"], "softmax", "rebound"),
])
def test_borrowed_answers_in_any_cell(sources, exercise, expected):
    found = tamper.borrowed_in_notebook(sources, [exercise])
    assert exercise in found and expected in found[exercise], found


@pytest.mark.parametrize("sources", [
    ["def softmax(x, axis=-1):\n    e = np.exp(x - x.max(axis, keepdims=True))\n    return e / e.sum(axis, keepdims=True)\n"
     "assert np.allclose(softmax(np.ones(3)), attnlab.softmax(np.ones(3)))"],       # a self-test beside it
    ["from attnlab import softmax", "def softmax(x, axis=-1):\n    return x"],      # an honest later definition
    ["from torch import nn\nclass MultiHeadAttention(nn.Module):\n    def n(self):\n        return len(list(self.modules()))\n"
     "ref = nn.MultiheadAttention(4, 2)"],
])
def test_honest_bindings_are_not_borrowed(sources):
    assert tamper.borrowed_in_notebook(sources, ["softmax", "MultiHeadAttention"]) == {}


@pytest.mark.parametrize("source", [
    "plt.rcParams['figure.figsize'] = (4, 3)",
    "import inspect, gc\nprint(inspect.signature(print), gc.isenabled())",
    "!pip list",
    "with open('/tmp/debug.txt', 'w') as fh:\n    fh.write('x')",
    "import torch\ntorch.backends.cudnn.deterministic = True",
    "m = np.zeros((3, 3), dtype=bool)\nm[np.tril_indices(3)] = True",
    "from attnlab.checks import check_softmax\ncheck_softmax(softmax)",
    "attnlab.checks.check_softmax(softmax)",
    "import attnlab.checks as C\nC.check_softmax(softmax)",
    "plt = __import__('matplotlib.pyplot').pyplot",
    "%matplotlib inline\nimport numpy as np",
])
def test_honest_code_is_not_tampering(source):
    assert tamper.tampering(source, ["softmax"]) == []


@pytest.mark.parametrize("source,expected", [
    ("import gc\nfor o in gc.get_objects():\n    pass", "garbage collector"),
    ("f.__closure__[0].cell_contents = None", "closure"),
    ("import subprocess\nsubprocess._fork_exec()", "fork_exec"),
    ("import importlib\nimportlib.import_module('attnlab.course.sandbox')", "grader"),
    ("attnlab.checks._core.call = None", "grader"),
    ("attnlab.checks.check_softmax = lambda *a, **k: None", "grader"),
])
def test_reaching_into_the_interpreter_is_tampering(source, expected):
    assert any(expected in f.detail for f in tamper.tampering(source, ["softmax"]))


def test_run_time_borrowed_objects():
    import functools

    import attnlab
    import attnlab.torch as at

    targets = tamper.runtime_targets("softmax")
    assert _borrowed_object(attnlab.softmax, "softmax", targets)
    assert "wraps" in _borrowed_object(functools.partial(attnlab.softmax, axis=-1), "softmax", targets)
    ref = attnlab.softmax

    def sneaky(x, axis=-1):
        return ref(x, axis)
    assert "attnlab.softmax" in _borrowed_object(sneaky, "softmax", targets)

    def honest(x, axis=-1):
        return x
    assert _borrowed_object(honest, "softmax", targets) is None
    import types

    copied = types.FunctionType(ref.__code__, ref.__globals__, "softmax", ref.__defaults__)
    assert "copy" in _borrowed_object(copied, "softmax", targets)

    class Sub(at.MultiHeadAttention):
        pass
    assert "subclasses" in _borrowed_object(Sub, "MultiHeadAttention", tamper.runtime_targets("MultiHeadAttention"))


def _watched_call(exercise, fn, *args):
    """Call ``fn`` as the sandbox calls an exercise; what the call watch saw (None: nothing)."""
    from attnlab.course.sandbox import _Tripwires

    wires = _Tripwires()
    try:
        wires.arm(exercise, tamper.runtime_targets(exercise))
        with wires.watching():
            fn(*args)
        return wires.hits.get(exercise)
    finally:
        wires.disarm()
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ArmAfterImport"]


def test_the_call_watch_sees_the_reference_however_it_is_reached():
    import types

    import torch

    import attnlab
    import attnlab.averages

    x = np.random.default_rng(0).normal(size=(3, 4))
    keep = [attnlab.softmax]
    copied = types.FunctionType(attnlab.softmax.__code__, attnlab.softmax.__globals__, "softmax",
                                attnlab.softmax.__defaults__)
    method = torch.Tensor.softmax
    cheats = {
        "a list": lambda x: keep[0](x),
        "a copy of its code": lambda x: copied(x),
        "a submodule": lambda x: getattr(attnlab.averages, "soft" + "max")(x),
        "an unbound tensor method": lambda x: method(torch.as_tensor(x), -1),
        "torch.softmax kept aside": (lambda f: lambda x: f(torch.as_tensor(x), -1))(torch.softmax),
    }
    for how, cheat in cheats.items():
        assert _watched_call("softmax", cheat, x), how

    def honest(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    assert _watched_call("softmax", honest, x) is None
    # another exercise may use the library's softmax; the library calling itself does not count
    assert _watched_call("mix_tokens", lambda X: attnlab.softmax(X @ X.T) @ X, x) is None
    assert _watched_call("softmax", lambda X: attnlab.mix_tokens(X), x) is None


def test_the_call_watch_notes_threads_processes_and_a_switched_off_profile():
    import _thread
    import threading

    import attnlab
    from attnlab.course import sandbox

    sandbox._note_raw_threads()
    x = np.ones((2, 3))

    def in_a_raw_thread(x):
        done = threading.Event()
        _thread.start_new_thread(lambda: done.set(), ())
        done.wait(5)

    def in_a_threading_thread(x):  # threading gives the thread the call's profile
        t = threading.Thread(target=attnlab.softmax, args=(x,))
        t.start()
        t.join()

    keep = [attnlab.softmax]

    def blinded(x):
        sys.setprofile(None)
        return keep[0](x)

    def in_a_process(x):  # no audit hook here: seen by the CPU time of the child it waited for
        pid = os.fork()
        if pid == 0:
            end = time.process_time() + 0.1
            while time.process_time() < end:
                pass
            os._exit(0)
        os.waitpid(pid, 0)

    assert "starts a thread" in _watched_call("softmax", in_a_raw_thread, x)
    assert "attnlab.softmax" in _watched_call("softmax", in_a_threading_thread, x)
    assert "switches off" in _watched_call("softmax", blinded, x)
    assert "starts a process" in _watched_call("softmax", in_a_process, x)


def test_a_call_that_raises_is_not_accused_of_switching_off_the_watch():
    """CPython drops a profile function that raises (a time limit landing inside it): the watch
    ends without the learner doing anything, and such a call earns nothing anyway."""
    from attnlab.course.sandbox import _Tripwires

    def ends_the_watch_and_raises(x):
        sys.setprofile(None)
        raise ValueError("stopped")

    wires = _Tripwires()
    try:
        wires.arm("softmax", tamper.runtime_targets("softmax"))
        with pytest.raises(ValueError):
            with wires.watching():
                ends_the_watch_and_raises(np.zeros(3))
        assert wires.hits.get("softmax") is None
    finally:
        wires.disarm()
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ArmAfterImport"]


def test_lone_surrogates_never_reach_the_records(tmp_path):
    data = json.loads('{"a\\udcff": ["x\\udcff", {"b": "\\ud83d\\ude00 ok"}]}')
    clean = read_stage.clean_text(data)
    assert clean == {"a\\udcff": ["x\\udcff", {"b": "\U0001F600 ok"}]}
    json.dumps(clean, ensure_ascii=False).encode("utf-8")
    from attnlab.course import records

    path = tmp_path / "grades.csv"
    records.write_csv(path, [{"assignment": "a", "student_id": "s", "notebook": "n", "detail": "bad \udcff"}], [])
    assert "bad \\udcff" in path.read_text(encoding="utf-8")


def test_notebooks_from_windows_editors_are_read(tmp_path):
    nb = ck.completed_student_notebook("01_weighted_averages")
    nb["cells"][2]["source"] = "# LONE\n" + nb["cells"][2]["source"]
    text = json.dumps(nb, indent=1).replace("LONE", "\\udcff").replace("\n", "\r\n")
    path = tmp_path / "nb.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    data, note = read_stage.read_notebook(path)
    assert data is not None, note
    assert data["cells"][2]["source"].startswith("# \\udcff")
    json.dumps(data, ensure_ascii=False).encode("utf-8")


def test_notebook_magics_work_in_the_sandbox_shell():
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    from attnlab.course.sandbox import _notebook_magics

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell(config=config)
    _notebook_magics(shell)
    for cell in ("%matplotlib inline", "%matplotlib widget", "%pylab inline\nassert linspace(0, 1, 3)[1] == 0.5"):
        assert shell.run_cell(cell, store_history=False).success, cell


def test_results_are_read_as_regular_files_only(tmp_path):
    fifo = tmp_path / "0000.json"
    os.mkfifo(fifo)
    with pytest.raises(collect_stage.NotRegular):
        collect_stage.read_regular(fifo, 100)                  # no hang
    (tmp_path / "real.json").write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(collect_stage.NotRegular):
        collect_stage.read_regular(tmp_path / "link.json", 100)
    (tmp_path / "big").write_bytes(b"x" * 200)
    with pytest.raises(ValueError):
        collect_stage.read_regular(tmp_path / "big", 100)
    assert judge_stage._load_outcome(tmp_path, 0).error == "BrokenResult"


def test_array_headers_are_checked_before_allocating(tmp_path):
    header = b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (400000000,), }" + b" " * 44 + b"\n"
    with zipfile.ZipFile(tmp_path / "0000.npz", "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("v.npy", "w", force_zip64=True) as fh:
            fh.write(header + bytes(2**20))               # says 3 GiB, holds 1 MiB
    (tmp_path / "0000.json").write_text(json.dumps({"id": 0, "error": None, "value": {"kind": "array", "key": "v"}}))
    outcome = judge_stage._load_outcome(tmp_path, 0)
    assert outcome.error in ("ResultTooLarge", "BrokenResult")
    buf = io.BytesIO()
    np.savez(buf, v=np.arange(4.0))
    (tmp_path / "0001.npz").write_bytes(buf.getvalue())
    (tmp_path / "0001.json").write_text(json.dumps({"id": 1, "error": None, "value": {"kind": "array", "key": "v"}}))
    np.testing.assert_array_equal(judge_stage._load_outcome(tmp_path, 1).value, np.arange(4.0))


@pytest.mark.parametrize("mangle", ["nbgrader_string", "metadata_list", "deep", "no_ids", "odd_minor", "deep_json"])
def test_malformed_notebooks_never_raise(tmp_path, mangle):
    nb = ck.completed_student_notebook("01_weighted_averages")
    if mangle == "nbgrader_string":
        nb["cells"][2]["metadata"]["nbgrader"] = "solution"
    elif mangle == "metadata_list":
        nb["cells"][2]["metadata"] = ["x"]
    elif mangle == "deep":
        deep: list = []
        for _ in range(700):
            deep = [deep]
        nb["cells"][2]["metadata"]["deep"] = deep
    elif mangle == "no_ids":
        for c in nb["cells"]:
            c.pop("id", None)
        nb["nbformat_minor"] = 4
    elif mangle == "odd_minor":
        nb["nbformat_minor"] = 99
    path = tmp_path / "nb.ipynb"
    text = json.dumps(nb) if mangle != "deep_json" else "[" * 100_000 + "]" * 100_000
    path.write_text(text)
    data, note = read_stage.read_notebook(path)
    if mangle == "deep_json":
        assert data is None and "readable" in note
        return
    assert data is not None, note
    assert all(isinstance(c["metadata"], dict) and isinstance(c["metadata"].get("nbgrader", {}), dict)
               and isinstance(c.get("id"), str) for c in data["cells"])
    assert len({c["id"] for c in data["cells"]}) == len(data["cells"])
    json.dumps(data)  # writable again (feedback, autograded copy)


def test_submissions_are_copied_without_links(tmp_path):
    src = tmp_path / "sub"
    (src / "notes").mkdir(parents=True)
    (src / "helpers.py").write_text("x = 1")
    (src / "notes" / "a.md").write_text("a")
    (src / "secret").symlink_to("/etc/hostname")
    os.mkfifo(src / "pipe")
    skipped = collect_stage.copy_submission(src, tmp_path / "copy")
    assert (tmp_path / "copy" / "helpers.py").read_text() == "x = 1"
    assert (tmp_path / "copy" / "notes" / "a.md").exists()
    assert not os.path.lexists(tmp_path / "copy" / "secret") and not os.path.lexists(tmp_path / "copy" / "pipe")
    assert any("symbolic link" in s for s in skipped) and any("not a regular file" in s for s in skipped)


def test_the_boundary_shows_only_the_job(tmp_path):
    """Under bubblewrap the course is not there at all, the work folder is writable, the rest
    is read-only, and the sandbox sees only its own processes."""
    import subprocess
    import sys

    from attnlab.course import boundary

    iso = boundary._probe()
    if not iso.isolated:
        pytest.skip(f"no OS boundary here: {iso.why}")
    job = tmp_path / "job"
    for d in ("work", "results", "tmp"):
        (job / d).mkdir(parents=True)
    code = (
        "import os, sys\n"
        f"root = {str(ck.ROOT)!r}\n"
        "print(os.path.exists(os.path.join(root, 'solutions')), os.path.exists(os.path.join(root, 'autograde')))\n"
        "open('/job/work/ok.txt', 'w').write('x')\n"
        "try:\n    open(os.path.join(sys.prefix, 'pwned'), 'w')\nexcept OSError as exc:\n    print('ro', type(exc).__name__)\n"
        "print('pids', len([p for p in os.listdir('/proc') if p.isdigit()]))\n")
    cmd = boundary.command(job, [sys.executable, "-I", "-c", code], {"PATH": "/usr/bin:/bin"}, hide=[str(ck.ROOT)])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False False", "the course is visible inside the sandbox"
    assert lines[1].startswith("ro ") and (job / "work" / "ok.txt").read_text() == "x"
    assert int(lines[2].split()[1]) <= 3, "the sandbox sees the host's processes"


def test_a_constant_with_noise_is_not_an_estimate():
    """Notebook 02's "varies with the seed" check: an honest estimate passes, the theory's d_k
    with 1 % noise (which also varies with the seed) does not, and the message names it."""
    from attnlab.checks import CheckFailure, check_score_variance_rng

    def honest(d_k, n_samples, rng):
        q, k = rng.standard_normal((n_samples, d_k)), rng.standard_normal((n_samples, d_k))
        return float(np.var(np.sum(q * k, axis=-1)))

    def noisy_constant(d_k, n_samples, rng):
        return float(d_k) * (1 + 0.01 * rng.standard_normal())

    check_score_variance_rng(honest)
    check_score_variance_rng(honest, hidden=True)
    with pytest.raises(CheckFailure, match="little noise"):
        check_score_variance_rng(noisy_constant, hidden=True)


def test_noise_made_to_scatter_like_an_estimate_is_not_one():
    """Notebook 02 (issue 26): noise whose spread across seeds mimics an estimate's still fails,
    since the answer must come from the generator it is given (drawn from, not just seeded
    from); honest estimates drawn in other ways (float32, one stacked draw, torch, a loop) pass,
    and the draws taken are counted exactly."""
    import torch

    from attnlab.checks import CheckFailure, check_score_variance_rng
    from attnlab.cards.score_variance import _draws_taken

    def like_an_estimate(d_k, n_samples, rng):
        return float(d_k) * (1 + ((2 + 6 / d_k) / n_samples) ** 0.5 * rng.standard_normal())

    def burns_a_few(d_k, n_samples, rng):
        rng.standard_normal(d_k)
        return like_an_estimate(d_k, n_samples, rng)

    def float32(d_k, n_samples, rng):
        q = rng.standard_normal((n_samples, d_k), dtype=np.float32)
        k = rng.standard_normal((n_samples, d_k), dtype=np.float32)
        return float(np.var((q * k).sum(-1)))

    def stacked(d_k, n_samples, rng):
        z = rng.normal(size=(2, n_samples, d_k))
        return float(np.var(np.einsum("nd,nd->n", z[0], z[1]), ddof=1))

    def with_torch(d_k, n_samples, rng):
        q, k = (torch.from_numpy(rng.standard_normal((n_samples, d_k))) for _ in range(2))
        return float(torch.var((q * k).sum(-1)))

    for honest in (float32, stacked, with_torch):
        check_score_variance_rng(honest)
        check_score_variance_rng(honest, hidden=True)
    for cheat in (like_an_estimate, burns_a_few):
        with pytest.raises(CheckFailure, match="noise made to scatter like an estimate"):
            check_score_variance_rng(cheat, hidden=True)
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    rng.bit_generator.random_raw(12345)
    assert _draws_taken(before, rng.bit_generator.state) == 12345
    assert _draws_taken(before, before) == 0


def test_ast_parse_is_serialised_across_grading_threads():
    """CPython 3.11's AST converter keeps its recursion depth in state shared by all threads:
    parsing in two grading jobs at once failed with 'AST constructor recursion depth mismatch'
    (a grader error). The grader parses one tree at a time, whoever calls ast.parse."""
    import ast
    import threading

    import attnlab.course.grading  # noqa: F401  (installs the lock)

    assert getattr(ast.parse, "attnlab_serialised", False)
    source = "\n".join(f"def f{i}(x):\n    return [(((x + {i}) * 2) - 1) for _ in range(3)]" for i in range(400))
    errors = []

    def work():
        try:
            for _ in range(20):
                ast.parse(source)
                ast.literal_eval("[" + "(1, 2)," * 200 + "]")
        except Exception as exc:  # noqa: BLE001 - any failure is the bug
            errors.append(repr(exc))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]


def test_the_writable_space_is_capped(tmp_path):
    """A job folder is a tmpfs with a size and an inode cap (root), results on one of their own."""
    import errno
    import os

    from attnlab.course import boundary

    folder = tmp_path / "job"
    folder.mkdir()
    space = boundary.WritableSpace(folder, size=8 * 2**20, files=200)
    if os.geteuid() != 0:
        assert not space.mounted and space.why
        pytest.skip("mounting a tmpfs needs root")
    try:
        assert space.mounted and os.path.ismount(folder) and os.path.ismount(folder / "results")
        with pytest.raises(OSError) as exc:
            (folder / "big.bin").write_bytes(b"x" * 16 * 2**20)
        assert exc.value.errno == errno.ENOSPC and space.check()
        (folder / "big.bin").unlink()
        with pytest.raises(OSError) as exc:
            for i in range(1000):
                (folder / f"f{i}").touch()
        assert exc.value.errno == errno.ENOSPC and boundary.space_full(folder)
        (folder / "results" / "0000.json").write_text("{}")  # the answers still come back
    finally:
        space.close()
    assert not os.path.ismount(folder)
