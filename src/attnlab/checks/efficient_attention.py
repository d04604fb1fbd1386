"""Checks of notebook 08, efficient_attention: what its cards (:mod:`attnlab.cards`) share:
``merge_softmax_stats``, ``online_softmax_update``, ``tiled_attention``, ``weights_from_logsumexp``,
``tiled_attention_backward`` and three predict-then-run questions.

What the cards share lives here: the softmax statistics of a block of scores (the cases of the
merge and the update), random ``Q, K, V``, and the memory measurement of the two memory checks.
``check_tiled_attention_memory`` and ``check_tiled_attention_backward_memory`` measure the peak
memory of the call (numpy and torch alike: the peak resident memory of a forked child running only
the call) and fail if it reaches a quarter of the ``(Lq, Lk)`` matrix; the course's grader takes
that measurement itself, outside the learner's process (``invoke_measuring_memory.measured_outside``).
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ._contract import numpy_exercise
from ._core import CheckRaised
from ._memory import peak_of_call

STATS = ("m", "l", "acc")


def stats_of(scores: np.ndarray, V: np.ndarray):
    """``(m, l, acc)`` of the keys whose scores are ``scores (..., Lq, T)`` and values ``V``."""
    m, l, acc = _ref.empty_softmax_stats(scores.shape[:-2], scores.shape[-2], V.shape[-1])
    return _ref.online_softmax_update(m, l, acc, scores, V)


def qkv(rng, batch, Lq, Lk, Dk, Dv, shift=0.0):
    """Random ``Q (..., Lq, Dk)``, ``K (..., Lk, Dk)``, ``V (..., Lk, Dv)``; ``shift`` moves the
    queries up and the keys down (scores around ``-shift² √Dk``)."""
    Q = rng.normal(size=(*batch, Lq, Dk)) + shift
    K = rng.normal(size=(*batch, Lk, Dk)) - shift
    V = rng.normal(size=(*batch, Lk, Dv))
    return Q, K, V


# -- memory ------------------------------------------------------------------------------------

MEMORY_FRACTION = 4  # the call may hold at most 1/4 of the (Lq, Lk) float64 score matrix at once


class TooMuchMemory(CheckRaised, Exception):
    """The learner's tiled_attention held too much memory at once."""


@numpy_exercise
def invoke_measuring_memory(fn, Q, K, V, tile_size, **kwargs):
    """Call ``fn`` and measure its peak extra memory (numpy, torch and Python alike: the call
    runs in a forked child, see :mod:`attnlab.checks._memory`); raise :class:`TooMuchMemory` if
    it reaches ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` float64 score matrix.

    This is the measurement of the notebook's own check. The course's grader does not trust a
    measurement taken in the learner's process: it calls :func:`call_tiled` in a process of its
    own and judges the peak it reads from the kernel with :func:`memory_verdict` (the pair is
    ``invoke_measuring_memory.measured_outside``)."""
    def warmup():  # the same code on two tiles of queries and keys: half the cost of a full call
        n = 2 * tile_size
        return fn(Q[..., :n, :], K[..., :n, :], V[..., :n, :], tile_size, **kwargs)

    result, peak, how = peak_of_call(lambda: fn(Q, K, V, tile_size, **kwargs), warmup=warmup)
    message = memory_verdict(peak, how, Q, K, V, tile_size, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def call_tiled(fn, Q, K, V, tile_size, **kwargs):
    """The call whose memory the grader measures from outside."""
    return fn(Q, K, V, tile_size, **kwargs)


def memory_verdict(peak: int, how: str, Q, K, V, tile_size, **kwargs) -> str | None:  # noqa: ARG001
    """None if ``peak`` extra bytes stay below ``1 / MEMORY_FRACTION`` of the score matrix;
    otherwise what :class:`TooMuchMemory` says."""
    full = Q.shape[-2] * K.shape[-2] * 8
    if peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while the whole ({Q.shape[-2]}, "
            f"{K.shape[-2]}) score matrix takes {full / 2**20:.1f} MiB; tiles of {tile_size} x "
            f"{tile_size} need about {3 * tile_size**2 * 8 / 2**20:.2f} MiB")


invoke_measuring_memory.measured_outside = (call_tiled, memory_verdict)
# The grader's probe lets blocks under 1 MiB live in the heap (see _memory._live_blocks_only): a
# tiled pass allocates and frees tiles of one size (128 x 128 floats: 128 KiB) at every step, which
# the heap reuses in place, while a page of its own for each cost the call five times its time. A
# block that could hold a quarter of the score matrix (12 MiB and more here) still gets its own.
TILE_MMAP_THRESHOLD = 1 << 20
invoke_measuring_memory.mmap_threshold = TILE_MMAP_THRESHOLD


@numpy_exercise
def invoke_backward_measuring_memory(fn, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs):
    """:func:`invoke_measuring_memory` for the backward pass: its peak extra memory must stay
    below ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` float64 matrix (the grader measures it
    outside the learner's process, with ``measured_outside``)."""
    def warmup():
        n = 2 * tile_size
        return fn(Q[..., :n, :], K[..., :n, :], V[..., :n, :], output[..., :n, :], logsumexp[..., :n],
                  grad_output[..., :n, :], tile_size, **kwargs)

    result, peak, how = peak_of_call(
        lambda: fn(Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs), warmup=warmup)
    message = backward_memory_verdict(peak, how, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def call_backward(fn, Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs):
    """The call whose memory the grader measures from outside."""
    return fn(Q, K, V, output, logsumexp, grad_output, tile_size, **kwargs)


def backward_memory_verdict(peak: int, how: str, Q, K, V, output, logsumexp, grad_output,  # noqa: ARG001
                            tile_size, **kwargs) -> str | None:
    """None if ``peak`` stays below ``1 / MEMORY_FRACTION`` of the ``(Lq, Lk)`` matrix."""
    return memory_verdict(peak, how, Q, K, V, tile_size)


invoke_backward_measuring_memory.measured_outside = (call_backward, backward_memory_verdict)
invoke_backward_measuring_memory.mmap_threshold = TILE_MMAP_THRESHOLD


__all__ = ["MEMORY_FRACTION", "TooMuchMemory", "backward_memory_verdict", "call_backward", "call_tiled", "invoke_backward_measuring_memory", "invoke_measuring_memory", "memory_verdict", "qkv", "stats_of"]
