"""Checks of notebook 06, attention_as_kernel_machine: what its cards (:mod:`attnlab.cards`) share.

Exercises: ``gaussian_attention_weights``, ``nadaraya_watson``, ``fit_bandwidth``,
``kernel_ridge_fit`` / ``kernel_ridge_predict``, ``linear_attention``,
``linear_attention_recurrent``, and two predict-then-run questions. Each card holds its cases,
checks and mistakes; this module holds what the linear-attention cards share: the feature maps
of their cases (module-level, so that the trusted grader can send them to another process), and
the invokes that measure how much memory a long case holds (the mechanism, not only the values).
"""
from __future__ import annotations

import numpy as np

from .. import linearised_attention as _lin
from ._contract import invoke_numpy, numpy_exercise
from ._memory import peak_of_call
from .efficient_attention import TooMuchMemory  # the name the grader's own measurement reports

# ---------------------------------------------------------------------------------------------
# The inputs of the linear-attention cases


def elu_plus_one(X):
    """The feature map elu(x) + 1 (a module-level function, so its name shows in messages)."""
    return _lin.elu_feature_map(X)


class RandomFeatureMap:
    """Positive random features with fixed directions, as a picklable callable (the trusted
    grader sends check inputs to another process). Scaled by 10 (linear attention does not
    change when phi is scaled) so that every normaliser phi(q).sum phi(k) is >= 1, as the
    tolerance policy assumes: an epsilon of 1e-6 added to it then stays within tolerance."""

    SCALE = 10.0

    def __init__(self, Dk: int, M: int, seed: int) -> None:
        self.W = np.random.default_rng(seed).normal(size=(Dk, M))  # (Dk, M)
        self.__name__ = f"positive_random_features_M{M}"

    def __call__(self, X):
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:  # one token's (Dk,) vector: a feature map takes (..., Dk), as the prompt says
            return self.SCALE * _lin.positive_random_features(X[None], self.W)[0]  # (Dk,) -> (M,)
        return self.SCALE * _lin.positive_random_features(X, self.W)  # (..., L, Dk) -> (..., L, M)


def random_feature_map(Dk: int, M: int, seed: int) -> RandomFeatureMap:
    return RandomFeatureMap(Dk, M, seed)


def qkv(rng, batch, Lq, Lk, Dk, Dv, scale=0.8):
    """Queries (*batch, Lq, Dk), keys (*batch, Lk, Dk) and values (*batch, Lk, Dv)."""
    return (scale * rng.normal(size=(*batch, Lq, Dk)), scale * rng.normal(size=(*batch, Lk, Dk)),
            rng.normal(size=(*batch, Lk, Dv)))


# ---------------------------------------------------------------------------------------------
# Memory: linear attention never holds an (Lq, Lk) array, a recurrence never every prefix state

MEMORY_FRACTION = 4  # the call may hold at most 1/4 of the (Lq, Lk) float64 kernel matrix at once
LONG = 2**24  # bytes: the (Lq, Lk) float64 matrix of a case this large is measured (16 MiB)


def _measured(Q, K, *args, **kwargs) -> bool:  # noqa: ARG001
    """Whether a case is long enough for its memory to be measured."""
    return Q.shape[-2] * K.shape[-2] * 8 >= LONG


@numpy_exercise
def invoke_linear_measuring_memory(fn, Q, K, V, feature_map, **kwargs):
    """:func:`invoke_numpy`, and on a long case also the peak extra memory of the call (see
    :mod:`attnlab.checks._memory`): :class:`TooMuchMemory` if it reaches ``1 / MEMORY_FRACTION``
    of the ``(Lq, Lk)`` kernel matrix. The course's grader measures it outside the learner's
    process (``measured_outside``; only the cases ``measures_case`` says)."""
    if not _measured(Q, K):
        return invoke_numpy(fn, Q, K, V, feature_map, **kwargs)

    def warmup():  # the same code on 64 queries and keys
        return fn(Q[..., :64, :], K[..., :64, :], V[..., :64, :], feature_map, **kwargs)

    result, peak, how = peak_of_call(lambda: invoke_numpy(fn, Q, K, V, feature_map, **kwargs), warmup=warmup)
    message = linear_memory_verdict(peak, how, Q, K, V, feature_map, **kwargs)
    if message:
        raise TooMuchMemory(message)
    return result


def linear_memory_verdict(peak: int, how: str, Q, K, V, feature_map, **kwargs) -> str | None:  # noqa: ARG001
    """None if ``peak`` extra bytes stay below ``1 / MEMORY_FRACTION`` of the kernel matrix (or
    the case is short); otherwise what :class:`TooMuchMemory` says."""
    full = Q.shape[-2] * K.shape[-2] * 8
    if not _measured(Q, K) or peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while the whole ({Q.shape[-2]}, "
            f"{K.shape[-2]}) kernel matrix takes {full / 2**20:.1f} MiB; linear attention needs "
            "only φ(K)ᵀV and Σφ(K) (or their prefix sums), whose size does not grow with Lq x Lk")


invoke_linear_measuring_memory.measured_outside = (invoke_numpy, linear_memory_verdict)
invoke_linear_measuring_memory.measures_case = _measured


def _state_bytes(Q, K, V, feature_map) -> int:
    """The bytes of the L prefix states φ(k_t) v_tᵀ (L, M, Dv) that a recurrence never holds."""
    return Q.shape[-2] * feature_map(Q[..., :1, :]).shape[-1] * V.shape[-1] * 8


def _long_recurrence(Q, K, V, feature_map) -> bool:
    return _state_bytes(Q, K, V, feature_map) >= LONG


@numpy_exercise
def invoke_recurrent_measuring_memory(fn, Q, K, V, feature_map):
    """:func:`invoke_numpy`, and on a long sequence also the peak extra memory of the call:
    :class:`TooMuchMemory` if it reaches ``1 / MEMORY_FRACTION`` of the L prefix states (L, M, Dv),
    which a recurrence replaces by one running state (M, Dv)."""
    if not _long_recurrence(Q, K, V, feature_map):
        return invoke_numpy(fn, Q, K, V, feature_map)
    result, peak, how = peak_of_call(lambda: invoke_numpy(fn, Q, K, V, feature_map),
                                     warmup=lambda: fn(Q[:64], K[:64], V[:64], feature_map))
    message = recurrent_memory_verdict(peak, how, Q, K, V, feature_map)
    if message:
        raise TooMuchMemory(message)
    return result


def recurrent_memory_verdict(peak: int, how: str, Q, K, V, feature_map) -> str | None:
    """None if ``peak`` stays below ``1 / MEMORY_FRACTION`` of the prefix states (or the case is
    short); otherwise what :class:`TooMuchMemory` says."""
    full = _state_bytes(Q, K, V, feature_map)
    if not _long_recurrence(Q, K, V, feature_map) or peak < full / MEMORY_FRACTION:
        return None
    return (f"it held {peak / 2**20:.1f} MiB at once ({how}), while all {Q.shape[-2]} prefix states "
            f"φ(k)vᵀ together take {full / 2**20:.1f} MiB; a recurrence keeps one running state S "
            "(M, Dv) and z (M,), updated in place of the old ones at every step")


invoke_recurrent_measuring_memory.measured_outside = (invoke_numpy, recurrent_memory_verdict)
invoke_recurrent_measuring_memory.measures_case = _long_recurrence
