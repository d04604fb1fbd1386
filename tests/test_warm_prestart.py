"""Issue 42: a batch's warm workers start in the background while the batch prepares
(``warm.Pool.prestart``), so a worker's first submission does not wait for its start; and a memory
probe's call runs as fast as the check allows (no watch of its calls, blocks of a tiled pass left
to the heap) while still catching the mistakes it is there for."""
from __future__ import annotations

import threading
import time

import pytest

import coursekit as ck
from attnlab.checks import attention_as_kernel_machine as kernel_machine, efficient_attention
from attnlab.checks._memory import MMAP_THRESHOLD
from attnlab.course import boundary, warm
from attnlab.course.stages import measure


class FakeZygote:
    """What the pool needs of a zygote: alive, covers, reset, close; and the thread that made it."""

    made = 0

    def __init__(self, modules, delay=0.0):
        time.sleep(delay)
        FakeZygote.made += 1
        self.preload, self.alive, self.closed = list(modules), True, False
        self.thread = threading.current_thread()

    def covers(self, preload):
        return all(m in self.preload for m in preload)

    def reset(self):
        pass

    def close(self):
        self.closed = True
        self.alive = False


def test_take_waits_for_the_workers_being_started_instead_of_starting_more():
    pool = warm.Pool()
    FakeZygote.made = 0
    pool.prestart(2, lambda modules: FakeZygote(modules, delay=0.3), ["numpy", "attnlab"])
    started = time.perf_counter()
    made_by_take = []

    def make(modules):  # only if take() found nothing to wait for
        made_by_take.append(modules)
        return FakeZygote(modules)

    a = pool.take(["numpy"], make)
    b = pool.take(["numpy", "attnlab"], make)
    assert made_by_take == [], "take() started a worker of its own while two were starting"
    assert a is not b and FakeZygote.made == 2
    assert time.perf_counter() - started >= 0.2, "take() returned before the workers were up"
    assert {"torch", "attnlab.torch"} <= set(a.preload), "a prestarted worker lacks torch"
    # the threads that started them are still alive: bubblewrap's --die-with-parent follows the thread
    assert a.thread.is_alive() and b.thread.is_alive()
    pool.give(a, healthy=True)
    pool.give(b, healthy=True)
    pool.close()
    assert a.closed and b.closed
    for z in (a, b):
        z.thread.join(5)
        assert not z.thread.is_alive(), "the thread that started a worker outlived the pool"


def test_a_worker_that_fails_to_start_leaves_take_to_start_one():
    pool = warm.Pool()

    def broken(modules):
        raise OSError("no bubblewrap here")

    pool.prestart(1, broken, ["numpy"])
    z = pool.take(["numpy"], lambda modules: FakeZygote(modules))
    assert z is not None and z.alive
    pool.close()


def test_a_worker_still_starting_when_the_pool_closes_is_closed_too():
    pool = warm.Pool()
    made = []

    def slow(modules):
        z = FakeZygote(modules, delay=0.3)
        made.append(z)
        return z

    pool.prestart(1, slow, ["numpy"])
    pool.close()  # waits for the start, then the worker is closed, not left running
    assert len(made) == 1 and made[0].closed


def test_the_tiled_checks_leave_tiles_to_the_heap_and_the_rest_do_not():
    # a tile of the memory case (128 x 128 floats) is under the threshold; a quarter of the score
    # matrix, what the check looks for, is far above it
    threshold = efficient_attention.invoke_measuring_memory.mmap_threshold
    assert efficient_attention.invoke_backward_measuring_memory.mmap_threshold == threshold
    assert 128 * 128 * 8 < threshold < 2048 * 3072 * 8 / efficient_attention.MEMORY_FRACTION / 4
    # the recurrence's states (48 KiB) must keep pages of their own: fragments of the heap grew
    # to the size of every prefix state there (see _memory._live_blocks_only)
    assert getattr(kernel_machine.invoke_recurrent_measuring_memory, "mmap_threshold", None) is None
    assert MMAP_THRESHOLD <= 64 * 96 * 8 // 2


@pytest.mark.skipif(not boundary.probe().isolated, reason="memory probes need bubblewrap (docs/grading.md)")
@pytest.mark.xdist_group("heavy")
def test_probes_of_the_tiled_checks_still_catch_the_full_matrix(tmp_path):
    """The reference passes every memory check, and the whole score matrix still fails them, with
    the tiles in the heap: graded as a class grades it (warm workers, probes outside)."""
    a = "08_efficient_attention"
    full = ck.catalogue(a)
    naive = [w for w in full if "materialising the full" in w.message]
    assert naive, "the catalogue lost its full-matrix mistakes"
    course = ck.make_course(tmp_path)
    ck.submit(course, "honest", a, ck.completed_student_notebook(a))
    for i, w in enumerate(naive):
        ck.submit(course, f"naive{i}", a, ck.completed_student_notebook(a, {w.solution: w.code}))
    proc = ck.course_command(course, "release")
    assert proc.returncode == 0, proc.stderr
    proc = ck.course_command(course, "grade", a, "--jobs", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    scores = ck.cell_scores(course, a)
    memory_cells = {c for w in naive for c in w.fails if "memory" in c}
    assert memory_cells
    assert all(scores["honest"][c] > 0 for c in memory_cells)
    for i, w in enumerate(naive):
        lost = [c for c in w.fails if "memory" in c and scores[f"naive{i}"][c] == 0]
        assert lost, f"{w.name}: no memory check caught it"
        text = ck.feedback_text(course, f"naive{i}", a)
        assert "MiB at once" in text


@pytest.mark.skipif(not boundary.probe().isolated, reason="warm workers need bubblewrap (docs/grading.md)")
def test_a_batch_with_nothing_to_run_ends_clean_while_its_workers_start(tmp_path):
    """A batch that ends before its workers are up (one notebook that is not a notebook: nothing to
    run) closes them, mounts and all, before its folder goes: found by a fresh clone's suite, where
    such batches failed with 'Device or resource busy' removing a worker's folder."""
    a = "01_weighted_averages"
    course = ck.make_course(tmp_path)
    ck.submit(course, "dee", a, "{not a notebook")
    proc = ck.course_command(course, "release")
    assert proc.returncode == 0, proc.stderr
    proc = ck.course_command(course, "grade", a, "--jobs", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "malformed notebook" in proc.stdout + proc.stderr
    assert "Device or resource busy" not in proc.stderr
