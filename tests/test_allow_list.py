"""The graded run's allow-list (docs/grading.md, "Tripwire and allow-list"): what a graded notebook
may do is numpy, torch's tensor operations, the course's helpers and plotting; the rest is refused
at the interpreter's level, with a note naming the cell, never a crash, and honest notebooks keep
their marks. Each case is a last cell added to notebook 01's solution, graded in one warm worker.

Also here: statuses only the grader may decide (a time-out is its own alarm at its own deadline,
out of memory an allocation that failed), and threads: while one the cells started is alive,
each call is answered in a process forked for it, where that thread is not (an idle or busy
honest thread costs nothing; one that would answer for the exercise cannot).
"""
from __future__ import annotations

import json

import pytest

import coursekit as ck
from attnlab.course import boundary, grading, warm
from attnlab.course.plan import plan_assignment
from attnlab.course.stages import handoff

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("allow-list")]

A = "01_weighted_averages"

# name -> (last cell, expected status, keeps full marks, a piece of the row's detail or "")
CASES = {
    "plain": ("", "graded", True, ""),
    "tqdm": ("from tqdm.auto import tqdm\nimport time\nfor _ in tqdm(range(3)):\n    time.sleep(0.02)",
             "graded", True, ""),
    "idle-thread": ("import threading\ndone = threading.Event()\n"
                    "threading.Thread(target=done.wait, daemon=True, name='ticker').start()",
                    "graded", True, ""),
    "traceback": ("import traceback\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()",
                  "graded", True, ""),
    "fork": ("import os\nif os.fork() == 0:\n    os._exit(0)", "graded", True, "starting a process (os.fork)"),
    "subprocess": ("import subprocess\nsubprocess.run(['true'])", "graded", True, "starting a process (subprocess.Popen)"),
    "torchscript": ("import torch\nf = torch.jit.script(lambda x: x)", "graded", True, "torch.jit.script is refused"),
    "results-folder": ("import os\nos.listdir('../results')", "graded", True, "the grader's results folder"),
    "raises-memory": ("raise MemoryError('pretend')", "graded", True, "MemoryError"),
    "raises-alarm": ("import signal\nsignal.setitimer(signal.ITIMER_REAL, 0.01)\nimport time\ntime.sleep(0.2)",
                     "graded", True, ""),
    # a thread the cells left that keeps computing: the calls are answered in a process of their own
    "busy-thread": ("import threading, time\n"
                    "def _spin():\n    while True:\n        sum(range(1000))\n        time.sleep(0.0005)\n"
                    "threading.Thread(target=_spin, daemon=True, name='spinner').start()",
                    "graded", True, ""),
    # a thread that answers for the exercise with the library: it is not there when the grader calls
    "answering-thread": ("import threading, queue, attnlab\n_q_in, _q_out = queue.Queue(), queue.Queue()\n"
                         "def _server():\n    while True:\n        args, kwargs = _q_in.get()\n"
                         "        _q_out.put(attnlab.softmax(*args, **kwargs))\n"
                         "threading.Thread(target=_server, daemon=True).start()\n"
                         "def softmax(*args, **kwargs):\n    _q_in.put((args, kwargs))\n    return _q_out.get(timeout=2)",
                         "graded", False, ""),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    if not boundary.probe().isolated:
        pytest.skip("needs bubblewrap: " + boundary.probe().why)
    scratch = tmp_path_factory.mktemp("allow-list")
    plan = plan_assignment(ck.ROOT, A)
    out = {}
    try:
        for name, (cell, *_) in CASES.items():
            nb = ck.completed_student_notebook(A)
            if cell:
                nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "last", "metadata": {},
                                    "outputs": [], "source": cell})
            folder = scratch / name
            folder.mkdir()
            (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
            out[name] = grading.grade_submission(handoff.Submission(name, A, folder), plan, handoff.Limits(),
                                                 scratch, [ck.ROOT])
    finally:
        warm.close_pool(scratch)
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_the_allow_list(graded, name):
    _, status, keeps, said = CASES[name]
    r = graded[name]
    detail = "; ".join(r.details)
    assert r.status == status, (r.status, detail[:500])
    assert (r.score == r.max_score) == keeps, (r.score, detail[:500])
    assert said in detail, detail[:500]


def test_the_seccomp_filter_refuses_what_aims_at_the_worker():
    """The learner's process may signal, renice, move and limit itself and its own children,
    never its parent (the warm worker), pid 1, a process group or every process of the user."""
    import os
    import resource
    import signal

    from attnlab.course import kernel_state

    if kernel_state.seccomp_program(os.uname().machine, 1) is None:
        pytest.skip("no seccomp table for this architecture")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child sets the filter on itself, as a sandbox does, and reports what went through
        os.close(read)
        parent = os.getppid()
        results = []
        try:
            kernel_state._refuse_keyrings()
            for call in (lambda: os.kill(parent, 0), lambda: os.kill(0, 0), lambda: os.kill(-1, 0),
                         lambda: os.setpriority(os.PRIO_PROCESS, parent, 1), lambda: os.setpriority(os.PRIO_USER, 0, 1),
                         lambda: os.sched_setaffinity(parent, os.sched_getaffinity(0)),
                         lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE),
                         lambda: os.kill(os.getpid(), 0), lambda: os.setpriority(os.PRIO_PROCESS, 0, 1)):
                try:
                    call()
                    results.append("ok")
                except OSError:
                    results.append("refused")
        finally:
            os.write(write, json.dumps(results).encode())
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    got = json.loads(os.read(read, 4096).decode() or "[]")
    os.close(read)
    assert got == ["refused"] * 7 + ["ok"] * 2, got
    assert signal.SIGKILL  # (the parent, this test, is still here to read it)
