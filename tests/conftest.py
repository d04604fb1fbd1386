"""Shared test set-up: import paths, a non-interactive matplotlib, and fair thread counts.

pytest-xdist runs one worker per core (``-n auto``). If every worker, and every Jupyter kernel
or grading sandbox a worker starts, used one thread per core, their threads would share the
cores and spin while waiting for each other: notebook 07's training ran 8-12 times slower that
way on a 2-core machine. Each worker therefore gets its share of the cores, for torch and for
numpy's BLAS, in-process and (through the environment) in every process it starts.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # coursekit, uncatalogued, realworld
os.environ.setdefault("MPLBACKEND", "Agg")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


WORKERS = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
THREADS = max(1, _cores() // WORKERS)
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = str(THREADS)  # read by torch and BLAS in every process started from here

import torch  # noqa: E402  (after the environment is set)
from threadpoolctl import threadpool_limits  # noqa: E402

torch.set_num_threads(THREADS)
threadpool_limits(limits=THREADS)  # BLAS libraries already loaded in this process


# ---------------------------------------------------------------------------------------------
# pytest-xdist's ``loadgroup`` keeps the tests of one ``xdist_group`` on one worker by adding
# ``@group`` to each test's id. pytest-xdist 3.8 writes that id to ``item._nodeid``, which pytest 9
# no longer reads (it keeps the id in ``item._id``), so every group was split across workers and
# each worker built the group's expensive module fixture again (the adversarial class, the site,
# the sharded class: minutes each). This puts the suffix where pytest 9 reads it.
import pytest  # noqa: E402


def _group_names(item) -> list[str]:
    return sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                   for m in item.iter_markers("xdist_group")})


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id

    for item in items:
        names = _group_names(item)
        if names and "@" not in item.nodeid and hasattr(item, "_id"):
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture(autouse=True)
def _course_secret_put_back():
    """``attnlab-course grade`` run in-process (``cli.main``) loads the course secret into this
    process (``course.secret.load``); a later test in the same worker would then draw other hidden
    cases than it was written for. Each test starts with the secret it found."""
    from attnlab.checks import _core

    saved, env = list(_core._SECRET), os.environ.get(_core.SECRET_ENV)
    yield
    _core._SECRET[:] = saved
    if env is None:
        os.environ.pop(_core.SECRET_ENV, None)
    else:
        os.environ[_core.SECRET_ENV] = env
