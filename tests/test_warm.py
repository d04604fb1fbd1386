"""Warm sandboxes (``ATTNLAB_WARM=1``, attnlab.course.warm): a submission graded in a warm
worker's child gets the same verdict as in a fresh sandbox, and nothing one child leaves behind
(files, processes, shared memory) reaches the next one."""
from __future__ import annotations

import json
import os

import pytest

import coursekit as ck
from attnlab.course import boundary, grading, warm
from attnlab.course.stages import run as run_stage
from attnlab.course.stages import handoff
from attnlab.course.plan import plan_assignment

A = "01_weighted_averages"

LEAVE = r'''
import os, ctypes, time
for path in ("/tmp/leak.txt", "/job/work/leak.txt", "/dev/shm/leak.txt", "/leak.txt", "/dev/leak.txt", "/job/leak.txt"):
    try:
        open(path, "w").write("from the previous submission")
        print("wrote", path)
    except OSError as exc:
        print("refused", path, exc.errno)
libc = ctypes.CDLL(None, use_errno=True)
print("shm", libc.shmget(0x5eed, 4096, 0o1666))  # IPC_CREAT | 0666
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
print("ptrace parent", libc.ptrace(16, os.getppid(), None, None))  # PTRACE_ATTACH
if os.fork() == 0:  # stays behind and tries to write the next submission's answers
    os.setsid()
    for _ in range(600):
        for name in ("0000.json", "done.json"):
            try:
                open("/job/results/" + name, "w").write("{}")
            except OSError:
                pass
        time.sleep(0.05)
    os._exit(0)
'''

LOOK = r'''
import os
print("GRADING", os.environ.get("NBGRADER_EXECUTION"))  # training cells run their small configuration
print("SEEN", repr((sorted(os.listdir("/tmp")), sorted(os.listdir("/dev/shm")), sorted(os.listdir("/job/work")),
      len([p for p in os.listdir("/proc") if p.isdigit()]),
      len(open("/proc/sysvipc/shm").read().splitlines()) - 1)))
'''


def _submit(tmp_path, name: str, extra: str):
    nb = ck.completed_student_notebook(A)
    nb = json.loads(nb) if isinstance(nb, str) else nb
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": extra, "outputs": [],
                        "execution_count": None, "id": f"extra-{name}"})
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    return handoff.Submission(name, A, folder)


@pytest.fixture
def warm_on(monkeypatch):
    if not boundary.probe().isolated:
        pytest.skip(f"no OS boundary here: {boundary.probe().why}")
    monkeypatch.setenv(warm.ENV, "1")


def _stdout(result) -> str:
    return "\n".join(str(e.get("stdout", "")) for e in result.cell_log)


def test_nothing_of_one_submission_reaches_the_next(tmp_path, warm_on, monkeypatch):
    ck.beneath_the_allow_list(monkeypatch)
    plan = plan_assignment(ck.ROOT, A)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    limits = handoff.Limits(notebook_seconds=240)
    try:
        first = grading.grade_submission(_submit(tmp_path, "a", LEAVE), plan, limits, scratch, [ck.ROOT])
        pool = warm.pool_for(scratch)
        assert len(pool.free) == 1, (first.status, first.details)
        slot = pool.free[0].folder
        second = grading.grade_submission(_submit(tmp_path, "b", LOOK), plan, limits, scratch, [ck.ROOT])
        assert len(pool.free) == 1 and pool.free[0].folder == slot, "the second ran in another worker"
    finally:
        warm.close_pool(scratch)
    out = _stdout(first)
    assert "wrote /tmp/leak.txt" in out and "wrote /job/work/leak.txt" in out and "wrote /dev/shm/leak.txt" in out
    for path in ("/leak.txt", "/dev/leak.txt", "/job/leak.txt"):
        assert f"refused {path}" in out, out
    assert "ptrace parent -1" in out, out
    assert first.status == "tampering detected"  # (ctypes: the static findings; the leftovers are the point here)
    seen = [line for line in _stdout(second).splitlines() if line.startswith("SEEN")]
    assert seen, second.cell_log
    assert "leak" not in seen[0], seen[0]
    tmp, shm, work, pids, segments = eval(seen[0][len("SEEN "):])  # noqa: S307 - our own print
    assert shm == [] and "leak.txt" not in tmp and "leak.txt" not in work
    assert segments == 0, "a shared-memory segment outlived its submission"
    assert pids <= 3, "a process of the previous submission is still there"
    assert second.status == "graded" and second.score == second.max_score, second.details
    assert "GRADING autograde" in _stdout(second)


def test_warm_and_fresh_sandboxes_agree(tmp_path, monkeypatch):
    if not boundary.probe().isolated:
        pytest.skip(f"no OS boundary here: {boundary.probe().why}")
    plan = plan_assignment(ck.ROOT, A)
    wrong = "def softmax(x, axis=-1):\n    import numpy as np\n    return np.exp(x) / np.exp(x).sum()\n"
    results = {}
    for mode in ("0", "1"):
        monkeypatch.setenv(warm.ENV, mode)
        scratch = tmp_path / f"scratch{mode}"
        scratch.mkdir()
        try:
            results[mode] = [grading.grade_submission(_submit(tmp_path, f"{mode}{i}", extra), plan,
                                                      handoff.Limits(), scratch, [ck.ROOT])
                             for i, extra in enumerate(["x = 1", wrong, "import os\nos._exit(3)"])]
        finally:
            warm.close_pool(scratch)
    for cold, hot in zip(results["0"], results["1"]):
        assert (cold.status, cold.score) == (hot.status, hot.score), (cold.details, hot.details)
        assert [c.lines for c in cold.cells] == [c.lines for c in hot.cells]
    assert results["1"][0].stages.get("imports", 1.0) < 0.5  # the warm child imported nothing itself
    assert all(k in results["0"][0].stages for k in ("interpreter", "imports", "cells", "calls", "judge"))
    assert os.environ.get(warm.ENV) == "1"


def test_memory_probes_are_children_of_the_warm_worker(tmp_path, warm_on, monkeypatch):
    """Notebook 08's memory probes run in the submission's warm worker (no fresh sandbox), their
    peak still read from outside, and the main run's answers are judged after them."""
    plan = plan_assignment(ck.ROOT, "08_efficient_attention")
    folder = tmp_path / "sub"
    folder.mkdir()
    nb = ck.completed_student_notebook("08_efficient_attention")
    (folder / "08_efficient_attention.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    from attnlab.course.stages import measure as measure_stage, run as run_stage

    runs = []
    real = run_stage.run_sandbox

    def spy(job_dir, job, *args, **kwargs):
        run = real(job_dir, job, *args, **kwargs)
        runs.append((bool(job.get("probe")), kwargs.get("zygote") is not None, run.peak, run.how))
        return run

    monkeypatch.setattr(run_stage, "run_sandbox", spy)      # the main run
    monkeypatch.setattr(measure_stage, "run_sandbox", spy)  # the memory probes
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    try:
        result = grading.grade_submission(handoff.Submission("s", "08_efficient_attention", folder), plan,
                                          handoff.Limits(), scratch, [ck.ROOT])
    finally:
        warm.close_pool(scratch)
    probes = [r for r in runs if r[0]]
    assert probes and all(warm_child for _, warm_child, _, _ in probes), runs
    assert all(peak is not None and "read by the grader" in how for _, _, peak, how in probes), probes
    assert (result.status, result.score) == ("graded", result.max_score), (result.details,
                                                                        [c.lines for c in result.cells])


KEYRING = r'''
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
calls = {"x86_64": (248, 250), "aarch64": (217, 219)}[__import__("os").uname().machine]
KEY_SPEC_USER_KEYRING, KEYCTL_SEARCH = -4, 10
if MODE == "write":
    r = libc.syscall(calls[0], b"user", b"attnlab-leak", b"from the previous submission", 28,
                     ctypes.c_int(KEY_SPEC_USER_KEYRING))
else:
    r = libc.syscall(calls[1], KEYCTL_SEARCH, ctypes.c_int(KEY_SPEC_USER_KEYRING), b"user", b"attnlab-leak", 0)
print("KEYRING", MODE, r, ctypes.get_errno())
'''


def test_no_keyring_reaches_the_next_submission(tmp_path, warm_on, monkeypatch):
    """Issue 40: the kernel's user keyring is shared by every process of the sandbox's user and
    nothing empties it between two children of a warm worker, so its system calls are refused:
    what one learner could store there, the next could read."""
    ck.beneath_the_allow_list(monkeypatch)
    plan = plan_assignment(ck.ROOT, A)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    try:
        first = grading.grade_submission(_submit(tmp_path, "a", "MODE = 'write'\n" + KEYRING), plan,
                                         handoff.Limits(), scratch, [ck.ROOT])
        second = grading.grade_submission(_submit(tmp_path, "b", "MODE = 'read'\n" + KEYRING), plan,
                                          handoff.Limits(), scratch, [ck.ROOT])
    finally:
        warm.close_pool(scratch)
    import errno

    assert f"KEYRING write -1 {errno.EPERM}" in _stdout(first), _stdout(first)
    assert f"KEYRING read -1 {errno.EPERM}" in _stdout(second), _stdout(second)

