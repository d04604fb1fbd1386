"""Thread settings that keep the suite and the notebooks fast on a busy machine.

torch starts one thread per core in every process; when those threads share the cores with
other work their spin-waiting makes small models train many times slower. These tests pin
down the settings that prevent it: the test workers' share, the kernels they start, the
notebooks that train, and the library's training helper.
"""
from __future__ import annotations

import json
import os
import re

import pytest
import torch
from nbclient import NotebookClient
import nbformat
from threadpoolctl import threadpool_info

import coursekit as ck
from conftest import THREADS, WORKERS, _cores
from attnlab.torch import translation as tr
from attnlab.torch._threads import fair_share, torch_threads


def test_each_worker_gets_its_share_of_the_cores():
    assert THREADS == max(1, _cores() // WORKERS)
    assert torch.get_num_threads() == THREADS
    for lib in threadpool_info():
        if lib["user_api"] == "blas":
            assert lib["num_threads"] <= THREADS, lib
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        assert os.environ[var] == str(THREADS)


@pytest.mark.notebooks
def test_kernels_started_by_the_suite_use_the_workers_share():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import json, torch\nfrom threadpoolctl import threadpool_info\n"
        "print(json.dumps([torch.get_num_threads(), "
        "max([l['num_threads'] for l in threadpool_info() if l['user_api'] == 'blas'] or [0])]))")]
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    torch_threads_in_kernel, blas_threads = json.loads(nb.cells[0].outputs[0]["text"])
    assert torch_threads_in_kernel == THREADS
    assert blas_threads <= THREADS


def _trains(nb: dict) -> bool:
    code = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
    return bool(re.search(r"\.backward\(|torch\.optim|\btr\.train\(|\.fit\(", code)) and "import torch" in code


TRAINING = [a for a in ck.assignments() if _trains(ck.load(ck.solution_path(a)))]


def test_some_notebooks_train():
    assert "07_rnn_translation_with_attention" in TRAINING


@pytest.mark.parametrize("assignment", TRAINING)
def test_notebooks_that_train_set_torch_threads(assignment):
    """A notebook that trains sets torch's threads in its set-up cell, with a comment saying why."""
    nb = ck.load(ck.solution_path(assignment))
    setup = [c for c in nb["cells"] if c["cell_type"] == "code" and "import torch" in c["source"]][0]
    lines = [line for line in setup["source"].splitlines() if "torch.set_num_threads(" in line]
    assert lines, f"{assignment}: its set-up cell does not call torch.set_num_threads"
    assert all("#" in line for line in lines), f"{assignment}: say why in a comment: {lines}"


def test_training_helper_uses_one_thread_and_restores_the_setting():
    seen = []
    config = tr.TrainConfig(attention="dot", epochs=1, max_steps=2, log_every=1, train_subset=64, batch_size=32)
    before = torch.get_num_threads()
    original = tr._train

    def spy(*args, **kwargs):
        seen.append(torch.get_num_threads())
        return original(*args, **kwargs)

    tr._train = spy
    try:
        tr.train(config, {"train": tr.splits(n_train=200, n_valid=10, n_test=10)["train"]})
        tr.train(config, {"train": tr.splits(n_train=200, n_valid=10, n_test=10)["train"]}, threads=None)
    finally:
        tr._train = original
    assert seen == [1, before]
    assert torch.get_num_threads() == before


def test_thread_helpers_reject_bad_counts():
    with pytest.raises(ValueError, match="workers"):
        fair_share(0)
    with pytest.raises(ValueError, match="threads"):
        with torch_threads(0):
            pass
    assert fair_share(10**6) == 1
