"""Measurements the learner's process cannot fake (issue 11), and the trusted side's own bounds.

Notebook 08's memory check is graded by a memory probe: a sandbox of its own (with warm workers:
a fresh child of the slot's warm worker; both are tested) runs the learner's cells and then only
the measured call; the grader resets that process's peak resident size from
outside before any learner code runs and reads the kernel's count when it has ended. These tests
grade, through the real grader, honest tiled attention (numpy and torch) and the ways a learner
could try to look tiled without being tiled: switching ``tracemalloc`` off, a buffer allocated in
advance, resetting the process's own peak counter, untiled torch (invisible to ``tracemalloc``),
library pages dropped from the resident set by a cell with ``madvise`` (issue 26).
"""
from __future__ import annotations

import contextlib
import json
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import coursekit as ck

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("measured_outside")]  # graded once per mode, on one worker

A = "08_efficient_attention"
MEMORY_CELLS = ("test_tiled_attention_memory",)
# The card's forms of untiled attention (attnlab.cards.tiled_attention), as the catalogue lists them.
WRONG = {w.label: w.code for w in ck.catalogue(A) if w.solution == "tiled_attention" and w.label}
NO_TILING = WRONG["no tiling at all"]  # numpy, the whole score matrix at once
UNTILED_TORCH = WRONG["torch, untiled"]

# An honest tiled attention in torch (float64 tensors, any batch shape).
TORCH_TILED = '''
import torch

def tiled_attention(Q, K, V, tile_size, causal=False):
    Q, K, V = (torch.as_tensor(a, dtype=torch.float64) for a in (Q, K, V))
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = torch.zeros(*batch, Lq, Dv, dtype=torch.float64)
    lse = torch.zeros(*batch, Lq, dtype=torch.float64)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = torch.full((*batch, i1 - i0), float("-inf"), dtype=torch.float64)
        l = torch.zeros(*batch, i1 - i0, dtype=torch.float64)
        acc = torch.zeros(*batch, i1 - i0, Dv, dtype=torch.float64)
        last = min(Lk, i1) if causal else Lk
        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ K[..., j0:j1, :].transpose(-1, -2) / Dk ** 0.5
            if causal and j1 - 1 > i0:
                visible = torch.arange(j0, j1)[None, :] <= torch.arange(i0, i1)[:, None]
                S = S.masked_fill(~visible, float("-inf"))
            m_new = torch.maximum(m, S.max(dim=-1).values)
            p = torch.exp(S - m_new[..., None])
            scale = torch.exp(m - m_new)
            l = l * scale + p.sum(dim=-1)
            acc = acc * scale[..., None] + p @ V[..., j0:j1, :]
            m = m_new
        out[..., i0:i1, :] = acc / l[..., None]
        lse[..., i0:i1] = m + torch.log(l)
    return out.numpy(), lse.numpy()
'''

# Honest too, with a cell that also tries an optimiser's step (what an exploring learner leaves
# in): torch loads its compiler stack (some 45 MiB) on the first step, which the grader loads
# before the probe's baseline, so it is never charged to the learner (issue 28's warm-up).
TORCH_TRAINS = TORCH_TILED + '''
_w = torch.nn.Parameter(torch.zeros(3))
_opt = torch.optim.Adam([_w], lr=0.1)
(_w ** 2).sum().backward()
_opt.step()
'''

# Untiled, with tracemalloc switched off first (it fooled the in-process measurement).
TRACEMALLOC_OFF = "import tracemalloc\n" + NO_TILING.replace(
    "    S = Q @", "    tracemalloc.stop()\n    S = Q @", 1)

# Untiled into a buffer allocated by the cell in advance (no allocation during the call).
PREALLOCATED = '''
import numpy as np

_SCORES = np.empty((4096, 4096))

def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Lk = Q.shape[-2], K.shape[-2]
    if Q.ndim != 2 or causal or Lq > 4096 or Lk > 4096:
        return attnlab.scaled_dot_product_attention(Q, K, V, attnlab.causal_mask(Lq, Lk) if causal else None)[0], None
    S = _SCORES[:Lq, :Lk]
    np.matmul(Q, K.T, out=S)
    S /= np.sqrt(Q.shape[-1])
    m = S.max(axis=-1, keepdims=True)
    np.subtract(S, m, out=S)
    np.exp(S, out=S)
    l = S.sum(axis=-1, keepdims=True)
    return (S @ V) / l, (m + np.log(l))[..., 0]
'''

# Untiled, then the process's own peak counter reset before returning.
RESETS_ITS_PEAK = NO_TILING.replace(
    "    return (e / l) @ V, (m + np.log(l))[..., 0]",
    "    out, lse = (e / l) @ V, (m + np.log(l))[..., 0]\n    del S, e\n"
    "    try:\n        with open('/proc/self/clear_refs', 'w') as f:\n            f.write('5')\n"
    "    except OSError:\n        pass\n    return out, lse", 1)
assert RESETS_ITS_PEAK != NO_TILING and TRACEMALLOC_OFF != NO_TILING

# Untiled, after a cell dropped the libraries' code pages from the resident set (madvise), the
# issue 26 attack (its form there is not known). The call is also measured from the resident size
# it starts from; this form (code pages only: dropping relocated read-only data crashes the
# process) does not free enough to get under the first baseline either, so it guards against
# regressions but does not tell the two measurements apart.
MADVISE_HEADROOM = NO_TILING + '''
import ctypes
_libc = ctypes.CDLL(None)
_libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
_dropped = 0
with open('/proc/self/maps') as _maps:
    for _line in _maps:
        _parts = _line.split()
        if len(_parts) >= 6 and _parts[5].startswith('/') and _parts[1] == 'r-xp':
            _a, _b = (int(v, 16) for v in _parts[0].split('-'))
            if _libc.madvise(_a, _b - _a, 4) == 0:  # MADV_DONTNEED: clean pages leave the resident set
                _dropped += _b - _a
print('dropped', _dropped >> 20, 'MiB of mappings')
'''

# Untiled, the score matrix split across 8 interpreters a cell starts (the grader refuses a process
# started during its call, not before): each computes 1/8 of the rows, scores and exponentials, all
# holding them at once (each interpreter far smaller than the learner's own process, the whole
# matrix twice together). Counting the largest process (wait4's peak) passed it (issue 40: "a
# separate interpreter server; the largest descendant's peak, not the sum"); the cgroup's peak, or
# the tree's sampled sum, counts them all. The inputs and rows travel through files, so the
# learner's own process holds nothing more than honest code does.
SPLIT_SERVER = """
import sys
import numpy as np
for line in sys.stdin:
    folder, a, b = line.split()
    a, b = int(a), int(b)
    Q, K, V = (np.load(f"{folder}/{n}.npy") for n in "QKV")
    S = Q[..., a:b, :] @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    m = S.max(axis=-1, keepdims=True)
    e = np.exp(S - m)
    l = e.sum(axis=-1, keepdims=True)
    np.save(f"{folder}/out{a}.npy", (e / l) @ V)
    np.save(f"{folder}/lse{a}.npy", (m + np.log(l))[..., 0])
    print("held", flush=True)
    sys.stdin.readline()  # S and e held until the caller says go
    print("done", flush=True)
"""
SPLIT_ACROSS_PROCESSES = f"""
import os, subprocess, sys, tempfile, time
import numpy as np

_SERVER = {SPLIT_SERVER!r}
_N = 8
_servers = [subprocess.Popen([sys.executable, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True) for _ in range(_N)]


def tiled_attention(Q, K, V, tile_size, causal=False):
    folder = tempfile.mkdtemp()
    for name, x in zip("QKV", (Q, K, V)):
        np.save(os.path.join(folder, name + ".npy"), np.asarray(x, dtype=np.float64))
    Lq = Q.shape[-2]
    starts = [k * Lq // _N for k in range(_N + 1)]
    for k, s in enumerate(_servers):
        s.stdin.write(" ".join([folder, str(starts[k]), str(starts[k + 1])]) + chr(10))
        s.stdin.flush()
    for s in _servers:
        s.stdout.readline()  # every server holds its rows now
    time.sleep(0.5)
    for s in _servers:
        s.stdin.write("go" + chr(10))
        s.stdin.flush()
        s.stdout.readline()
    out = np.concatenate([np.load(os.path.join(folder, f"out{{a}}.npy")) for a in starts[:-1]], axis=-2)
    lse = np.concatenate([np.load(os.path.join(folder, f"lse{{a}}.npy")) for a in starts[:-1]], axis=-1)
    return out, lse
"""


SUBMISSIONS = {  # name: (tiled_attention's cell, whether the memory cells keep their points)
    "honest_numpy": (None, True),
    "honest_torch": (TORCH_TILED, True),
    "honest_torch_trains": (TORCH_TRAINS, True),
    "untiled": (NO_TILING, False),
    "tracemalloc_off": (TRACEMALLOC_OFF, False),
    "preallocated_buffer": (PREALLOCATED, False),
    "resets_its_peak": (RESETS_ITS_PEAK, False),
    "untiled_torch": (UNTILED_TORCH, False),
    "madvise_headroom": (MADVISE_HEADROOM, False),
    "split_across_processes": (SPLIT_ACROSS_PROCESSES, False),
}


def _modes():
    from attnlab.course import boundary

    return ["bwrap", "bwrap-cold", "guard"] if boundary._probe().isolated else ["guard"]  # bwrap: warm workers


@contextlib.contextmanager
def grading_mode(mode: str, scratch):
    """Grade under ``mode`` ("bwrap", "bwrap-cold" or "guard"; warm workers unless "-cold"), the
    environment and the boundary's probe put back afterwards, the warm pool of ``scratch`` closed."""
    from attnlab.course import boundary, warm

    old = {k: os.environ.get(k) for k in (boundary.ENV, warm.ENV)}
    os.environ[boundary.ENV] = mode.split("-")[0]
    os.environ[warm.ENV] = "0" if mode.endswith("-cold") else "1"  # warm: probes are children of a warm worker
    boundary.reset_probe()
    try:
        yield
    finally:
        warm.close_pool(scratch)
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        boundary.reset_probe()


@pytest.fixture(scope="module", params=_modes())
def graded(request, tmp_path_factory):
    from attnlab.course import boundary, grading
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment

    mode = request.param
    scratch = tmp_path_factory.mktemp(f"measured-{mode}")
    plan = plan_assignment(ck.ROOT, A)
    names = [n for n in SUBMISSIONS if mode.startswith("bwrap") or n not in ("resets_its_peak", "madvise_headroom", "split_across_processes")]  # see docs/grading.md
    subs = []
    for name in names:
        code = SUBMISSIONS[name][0]
        nb = ck.completed_student_notebook(A, None if code is None else {"tiled_attention": code})
        folder = scratch / "submitted" / name / A
        folder.mkdir(parents=True)
        (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        subs.append(handoff.Submission(name, A, folder))
    with grading_mode(mode, scratch), ThreadPoolExecutor(2) as pool:
        results = list(pool.map(
            lambda s: grading.grade_submission(s, plan, handoff.Limits(), scratch, [ck.ROOT]), subs))
    return mode, {r.student: r for r in results}


@pytest.mark.parametrize("name", list(SUBMISSIONS))
def test_memory_is_judged_from_outside(graded, name):
    mode, results = graded
    if name not in results:
        pytest.skip("without the OS boundary a process can reset its own peak counter (docs/grading.md)")
    r = results[name]
    assert r.status in ("graded", "tampering detected"), (r.status, r.details)
    cells = {c.grade_id: c for c in r.cells}
    keeps = SUBMISSIONS[name][1]
    for gid in MEMORY_CELLS:
        cell = cells[gid]
        if keeps:
            assert cell.passed, f"{mode} {name}: {cell.lines[0]}"
        elif name == "split_across_processes":  # no process starts in a graded run: refused, and said
            assert not cell.passed and cell.score == 0, (mode, name, cell.lines)
            assert any("starting a process" in d and "refused while grading" in d for d in r.details), r.details
        else:
            assert not cell.passed and cell.score == 0, (mode, name, cell.lines)
            assert "held" in cell.lines[0] and "read by the grader" in cell.lines[0], cell.lines[0]
            assert "materialising the full" in cell.lines[0], cell.lines[0]
    if keeps and name == "honest_numpy":
        assert r.status == "graded" and r.score == r.max_score, (r.status, r.details, [c.lines for c in r.cells])


# A cell that leaves a process behind (a double fork: its parent ends, the grandchild is an orphan)
# holding 300 MiB, with an honest tiled_attention: without the subreaper the orphan's memory was
# counted nowhere (issue 40: "does not count an orphaned grandchild").
ORPHAN_HOLDS_MEMORY = ck.solution_cells(ck.load(ck.solution_path(A)))["tiled_attention"]["source"] + '''

import os as _os, time as _time
_first = _os.fork()
if _first == 0:
    if _os.fork() == 0:  # the grandchild: orphaned when its parent ends just below
        _held = bytearray(300 * 2**20)
        for _i in range(0, len(_held), 4096):
            _held[_i] = 1
        _time.sleep(600)
    _os._exit(0)
_os.waitpid(_first, 0)
_time.sleep(1.0)  # the orphan has touched its pages
'''


@pytest.mark.parametrize("mode", ["bwrap", "bwrap-cold"])
def test_an_orphaned_process_is_never_started(mode, tmp_path):
    """No process starts once learner code may run (the graded run's allow-list), so no orphan
    can hold memory the probe does not count: the fork is refused, the row says so, and the
    honest tiled attention beside it is judged on its own memory. (Were one started anyway,
    the sandbox adopts orphans, PR_SET_CHILD_SUBREAPER, and ends and waits for all of them,
    so the kernel's count, wait4, would include theirs.)"""
    from attnlab.course import boundary, grading
    from attnlab.course.stages import handoff
    from attnlab.course.plan import plan_assignment

    if not boundary._probe().isolated:
        pytest.skip("without the OS boundary the cell cannot start a process at all")
    plan = plan_assignment(ck.ROOT, A)
    nb = ck.completed_student_notebook(A, {"tiled_attention": ORPHAN_HOLDS_MEMORY})
    folder = tmp_path / "submitted" / "orphan" / A
    folder.mkdir(parents=True)
    (folder / f"{A}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    with grading_mode(mode, tmp_path):
        result = grading.grade_submission(handoff.Submission("orphan", A, folder), plan, handoff.Limits(),
                                          tmp_path, [ck.ROOT])
    cell = {c.grade_id: c for c in result.cells}["test_tiled_attention_memory"]
    assert cell.passed, (mode, result.status, cell.lines)
    assert any("starting a process (os.fork)" in d and "refused while grading" in d for d in result.details), \
        result.details


def test_the_main_run_does_not_measure_memory():
    """The main sandbox run calls the measured exercise plainly (its answer only): no verdict on
    memory is ever taken from inside the learner's process."""
    from attnlab.cards import tiled_attention as card  # the card's measured call and its verdict
    from attnlab.course.plan import job_calls, plan_assignment

    plan = plan_assignment(ck.ROOT, A)
    invokes = {c["invoke"] for c in job_calls(plan) if c["name"] == "tiled_attention"}
    assert card.invoke_measuring_memory not in invokes
    assert card.call_tiled in invokes
    assert card.invoke_measuring_memory.measured_outside == (card.call_tiled, card.memory_verdict)
    assert card.memory_verdict(2**20, "x", np.zeros((2048, 4)), np.zeros((3072, 4)), None, 128) is None
    assert "held 40.0 MiB" in card.memory_verdict(40 * 2**20, "x", np.zeros((2048, 4)), np.zeros((3072, 4)), None, 128)


# ---------------------------------------------------------------------------------------------
# The trusted side's own bounds

def test_an_answer_far_larger_than_the_reference_is_not_read(tmp_path):
    """An answer's headers are checked against the reference's answer to that case before any
    array is allocated: a wrong shape of the same order is read (and judged), one hundreds of
    times larger is refused."""
    from attnlab.checks import CheckSpec, Case
    from attnlab.course import grading
    from attnlab.course.stages import judge as judge_stage

    spec = CheckSpec("softmax", lambda x: np.exp(x) / np.exp(x).sum(), [Case((np.zeros(1000),))])
    bound = judge_stage.AnswerBound.of(spec, 0)
    assert bound.nbytes == judge_stage.SMALL_RESULT_BYTES and bound.ndim == 3

    def write(call_id, value):
        np.savez(tmp_path / f"{call_id:04d}.npz", v=value)
        (tmp_path / f"{call_id:04d}.json").write_text(json.dumps({"id": call_id, "error": None,
                                                                   "value": {"kind": "array", "key": "v"}}))
    write(0, np.zeros((1000, 100)))          # 800 kB: a wrong shape, still read
    write(1, np.zeros((1000, 1000)))         # 8 MB where the reference answers 8 kB
    write(2, np.zeros((1,) * 9))             # nine dimensions for a vector
    one = lambda: judge_stage.AnswerBound.of(spec, 0)  # noqa: E731
    assert judge_stage._load_outcome(tmp_path, 0, bound=one).value.shape == (1000, 100)
    assert judge_stage._load_outcome(tmp_path, 1, bound=one).error == "ResultTooLarge"
    assert judge_stage._load_outcome(tmp_path, 2, bound=one).error == "ResultTooLarge"
    assert judge_stage._load_outcome(tmp_path, 1).value.shape == (1000, 1000)  # no reference: the general cap


def test_the_grader_bounds_its_own_memory():
    """``grader_memory_bound``: an allocation beyond the bound is a MemoryError (that
    submission's grader error), and the limit is put back afterwards."""
    import resource

    from attnlab.course import grading
    from attnlab.course.stages import handoff

    before = resource.getrlimit(resource.RLIMIT_DATA)
    with open("/proc/self/status", encoding="ascii") as f:
        data_mib = next(int(line.split()[1]) for line in f if line.startswith("VmData:")) // 1024
    limits = handoff.Limits(memory_mib=64, grader_mib=data_mib + 512)
    with handoff.grader_memory_bound(limits) as bound:
        if bound is None:
            pytest.skip("RLIMIT_DATA cannot be set here")
        small = np.ones(2**20)                                    # 8 MiB: fine
        with pytest.raises(MemoryError):
            np.ones(2**28)                                        # 2 GiB: beyond the bound
        del small
    assert resource.getrlimit(resource.RLIMIT_DATA) == before


def test_a_memory_error_in_the_grader_is_that_submissions_grader_error(tmp_path, monkeypatch):
    from attnlab.course import grading
    from attnlab.course.stages import handoff
    from attnlab.course.stages import read as read_stage
    from attnlab.course.plan import plan_assignment

    plan = plan_assignment(ck.ROOT, "01_weighted_averages")
    folder = tmp_path / "s" / "01_weighted_averages"
    folder.mkdir(parents=True)
    (folder / "01_weighted_averages.ipynb").write_text(json.dumps(ck.completed_student_notebook("01_weighted_averages")))

    def too_big(path):
        raise MemoryError()
    monkeypatch.setattr(read_stage, "read_notebook", too_big)  # the read stage's own reader
    r = grading.grade_submission(handoff.Submission("s", "01_weighted_averages", folder), plan, handoff.Limits(),
                                 tmp_path, [ck.ROOT])
    assert r.status == "grader error" and "MiB" in r.details[0] and r.score == 0


def test_cli_refuses_bad_memory_settings(capsys):
    from attnlab.course import cli

    for args, word in ((["--memory", "0"], "--memory"), (["--grader-memory", "100"], "--grader-memory")):
        with pytest.raises(SystemExit) as exc:
            cli.main(["grade", *args])
        assert exc.value.code == 2
        assert word in capsys.readouterr().err


def test_a_library_imported_during_the_call_is_watched_too():
    """The tripwires cover a library that the exercise first imports while it is called
    (``importlib.import_module("scipy." + "special")`` in its body), not only the libraries
    loaded before: they are armed as soon as that import has finished."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from attnlab.course import sandbox, tamper\n"
        "assert 'scipy.special' not in sys.modules\n"
        "def softmax(x, axis=-1):\n"
        "    special = __import__('importlib').import_module('scipy.' + 'special')\n"
        "    return special.softmax(x, axis=axis)\n"
        "def honest(x, axis=-1):\n"
        "    import numpy as np\n"
        "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
        "    return e / e.sum(axis=axis, keepdims=True)\n"
        "import numpy as np\n"
        "tw = sandbox._Tripwires()\n"
        "tw.arm('softmax', tamper.runtime_targets('softmax'))\n"
        "honest(np.ones(3))\n"
        "assert 'softmax' not in tw.hits, tw.hits\n"
        "softmax(np.ones(3))\n"
        "softmax(np.ones(3))\n"
        "tw.disarm()\n"
        "import scipy.special\n"
        "assert scipy.special.softmax.__name__ == 'softmax' and 'watched' not in repr(scipy.special.softmax)\n"
        "print(tw.hits)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "scipy.special.softmax" in out.stdout, out.stdout
