"""How many threads torch uses, set deliberately.

torch starts one intra-op thread per core. When those threads share the cores with other work
(a second test worker, another kernel, a browser), they spin while waiting for each other and
small models train many times slower than on one thread. Training helpers therefore run with
a thread count they are given (one by default) and put torch's setting back afterwards.
"""
from __future__ import annotations

import contextlib
import os
from typing import Iterator

import torch


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def fair_share(workers: int) -> int:
    """Threads per worker when ``workers`` processes share this process's cores (at least 1)."""
    if workers < 1:
        raise ValueError(f"workers: expected a positive number, got {workers}")
    return max(1, available_cores() // workers)


@contextlib.contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """Run the block with ``torch.set_num_threads(threads)``; ``None`` changes nothing."""
    if threads is None:
        yield
        return
    if threads < 1:
        raise ValueError(f"threads: expected a positive number or None, got {threads}")
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)
