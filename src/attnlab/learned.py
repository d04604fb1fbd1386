"""What trained attention computes (numpy references for notebook 12).

Shape letters: ``N`` examples in a prompt, ``d`` input width, ``L`` sequence length, ``La`` and
``Lb`` the lengths of two sentences, ``D`` feature width. Leading batch dimensions ``...`` are
allowed wherever a matmul would allow them.

* **In-context regression** (Zhang, Frei and Bartlett, JMLR 2024; von Oswald et al., ICML 2023):
  a prompt of ``N`` examples ``(x_i, y_i)`` and a query ``x_query`` is packed into rows
  ``[x_i, y_i]`` and a last row ``[x_query, 0]``; one linear self-attention layer updates every
  row by the average over the ``N`` example rows (the query row is no key or value); the
  prediction is the last entry of the query row. With its weights set to the block construction
  it equals one step of preconditioned gradient descent from ``w = 0``.
* **Induction heads** (Olsson et al., 2022): how strongly a head attends to the previous token,
  and, on a sequence that repeats with period ``period``, to the token after the previous
  occurrence of the current one.
* **Decomposable attention** (Parikh et al., EMNLP 2016): soft alignment of two sentences.
"""
from __future__ import annotations

import numpy as np

from ._validate import fmt, require_int, require_ndim
from .averages import softmax


def _float(x) -> np.ndarray:
    return np.asarray(x, dtype=float)


def icl_prompt(X: np.ndarray, y: np.ndarray, x_query: np.ndarray) -> np.ndarray:
    """Pack a regression prompt into the matrix a linear self-attention layer reads.

    Args:
        X: ``(..., N, d)`` the example inputs.
        y: ``(..., N)`` their targets.
        x_query: ``(..., d)`` the input whose target is to be predicted.

    Returns:
        ``Z (..., N+1, d+1)``, one per prompt: a row per example, its ``d`` input features and
        then its target; a last row for the query, its input and then zero for the unknown
        target.
    """
    X, y, x_query = _float(X), _float(y), _float(x_query)
    require_ndim(X, "X", ("N", "d"))
    require_ndim(y, "y", ("N",))
    require_ndim(x_query, "x_query", ("d",))
    *batch, N, d = X.shape
    if y.shape != X.shape[:-1]:
        raise ValueError(f"y: expected shape {fmt([*batch, N])} (one target per row of X), got {fmt(y.shape)}")
    if x_query.shape != (*batch, d):
        raise ValueError(f"x_query: expected shape {fmt([*batch, d])} (one input like a row of X), "
                         f"got {fmt(x_query.shape)}")
    examples = np.concatenate([X, y[..., None]], axis=-1)  # (..., N, d) + (..., N, 1) -> (..., N, d+1)
    query = np.concatenate([x_query, np.zeros((*batch, 1))], axis=-1)  # (..., d) -> (..., d+1)
    return np.concatenate([examples, query[..., None, :]], axis=-2)  # -> (..., N+1, d+1)


def linear_self_attention(Z: np.ndarray, W_kq: np.ndarray, W_pv: np.ndarray) -> np.ndarray:
    """One linear self-attention layer with a residual connection, as in in-context regression.

    Every row of ``Z`` is a query; only the first ``N`` rows (the examples) are keys and values,
    the query row is none. There is no softmax: each row's update is the average, over the
    examples, of its score times the example's value (scores through ``W_kq``, values through
    ``W_pv``). The prediction for the query is the last entry of the last row of the result.

    Args:
        Z: ``(..., N+1, d+1)`` prompts as packed by ``icl_prompt``; ``N >= 1``.
        W_kq: ``(d+1, d+1)`` the merged key-query matrix.
        W_pv: ``(d+1, d+1)`` the merged value-projection matrix.

    Returns:
        ``(..., N+1, d+1)``: every row of ``Z`` plus its update.
    """
    Z, W_kq, W_pv = _float(Z), _float(W_kq), _float(W_pv)
    require_ndim(Z, "Z", ("N+1", "d+1"))
    *_, rows, width = Z.shape
    if rows < 2:
        raise ValueError(f"Z: expected shape (..., N+1, d+1) with N >= 1 examples, got {fmt(Z.shape)}")
    for name, W in (("W_kq", W_kq), ("W_pv", W_pv)):
        if W.shape != (width, width):
            raise ValueError(f"{name}: expected shape (d+1={width}, d+1={width}) for Z {fmt(Z.shape)}, "
                             f"got {fmt(W.shape)}")
    N = rows - 1
    Z_c = Z[..., :N, :]  # (..., N, d+1): the examples, keys and values
    scores = (Z @ W_kq) @ np.swapaxes(Z_c, -1, -2)  # (..., N+1, d+1) x (..., d+1, N) -> (..., N+1, N)
    values = Z_c @ W_pv  # (..., N, d+1)
    return Z + scores @ values / N  # (..., N+1, N) x (..., N, d+1) -> (..., N+1, d+1)


def gd_step_prediction(X: np.ndarray, y: np.ndarray, x_query: np.ndarray, Gamma: np.ndarray) -> np.ndarray:
    """The prediction after one preconditioned gradient step on the prompt's least squares.

    The loss is the mean squared error over the prompt's examples, halved. One gradient step
    from ``w = 0``, with the preconditioner ``Gamma`` in place of a step size (``Gamma`` acts on
    the gradient as on a column vector), gives ``w_1``; the prediction is ``x_query · w_1``.

    Args:
        X: ``(..., N, d)`` the example inputs, ``N >= 1``.
        y: ``(..., N)`` their targets.
        x_query: ``(..., d)`` the query input.
        Gamma: ``(d, d)`` the preconditioner, not necessarily symmetric (the identity: plain
            gradient descent with step size 1).

    Returns:
        ``(...)`` the predictions (a float array, 0-d without batch dimensions).
    """
    X, y, x_query, Gamma = _float(X), _float(y), _float(x_query), _float(Gamma)
    require_ndim(X, "X", ("N", "d"))
    require_ndim(y, "y", ("N",))
    require_ndim(x_query, "x_query", ("d",))
    *batch, N, d = X.shape
    if N < 1:
        raise ValueError(f"X: expected shape (..., N, d) with N >= 1 examples, got {fmt(X.shape)}")
    if y.shape != X.shape[:-1]:
        raise ValueError(f"y: expected shape {fmt([*batch, N])} (one target per row of X), got {fmt(y.shape)}")
    if x_query.shape != (*batch, d):
        raise ValueError(f"x_query: expected shape {fmt([*batch, d])}, got {fmt(x_query.shape)}")
    if Gamma.shape != (d, d):
        raise ValueError(f"Gamma: expected shape (d={d}, d={d}), got {fmt(Gamma.shape)}")
    w = np.einsum("ij,...nj,...n->...i", Gamma, X, y) / N  # (d, d), (..., N, d), (..., N) -> (..., d)
    return np.einsum("...i,...i->...", x_query, w)  # (..., d) . (..., d) -> (...)


def _weights(weights, name: str = "weights") -> np.ndarray:
    weights = _float(weights)
    require_ndim(weights, name, ("L", "L"))
    if weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"{name}: expected square attention weights (..., L, L), got {fmt(weights.shape)}")
    return weights


def previous_token_score(weights: np.ndarray) -> float:
    """How much a head attends to the previous token.

    Args:
        weights: ``(..., L, L)`` one head's attention weights (row ``t``: what token ``t``
            attends to), ``L >= 2``.

    Returns:
        The weight each position gives to the position just before it, averaged over every
        position that has one and over any leading axes (a float in ``[0, 1]`` for softmax
        weights).
    """
    weights = _weights(weights)
    L = weights.shape[-1]
    if L < 2:
        raise ValueError(f"weights: expected L >= 2 (a token with a previous one), got {fmt(weights.shape)}")
    t = np.arange(1, L)
    return float(weights[..., t, t - 1].mean())


def prefix_matching_score(weights: np.ndarray, period: int) -> float:
    """How much a head attends to the token after the previous occurrence of the current one.

    The weights were measured on a sequence that repeats with period ``period`` from its first
    token. An induction head attends from each token to the token that followed its previous
    occurrence.

    Args:
        weights: ``(..., L, L)`` one head's attention weights.
        period: the period of the sequence, ``1 <= period < L``.

    Returns:
        The weight on the token after the previous occurrence of the current one, averaged over
        the positions ``t >= period`` (those with a previous occurrence one period back; a chance
        repeat inside the first period is not counted) and over any leading axes (a float).
    """
    weights = _weights(weights)
    L = weights.shape[-1]
    period = require_int(period, "period", minimum=1)
    if period >= L:
        raise ValueError(f"period: expected 1 <= period < L={L}, got {period}")
    t = np.arange(period, L)
    return float(weights[..., t, t - period + 1].mean())


def induction_targets(tokens: np.ndarray) -> np.ndarray:
    """Where an induction head attends, found by comparing tokens: ``(..., L, L)`` bool, ``True``
    at ``[t, j]`` when ``1 <= j <= t`` and ``tokens[j - 1] == tokens[t]`` (key ``j`` follows an
    earlier occurrence of the query's token)."""
    tokens = np.asarray(tokens)
    require_ndim(tokens, "tokens", ("L",))
    if tokens.size and not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(f"tokens: expected integer token ids, got dtype {tokens.dtype}")
    L = tokens.shape[-1]
    before = np.concatenate([np.full(tokens.shape[:-1] + (1,), -1), tokens[..., :-1]], axis=-1)  # (..., L): token j-1
    same = tokens[..., :, None] == before[..., None, :]  # (..., L, L): token t == token j-1
    j, t = np.arange(L)[None, :], np.arange(L)[:, None]
    return same & (j >= 1) & (j <= t)


def induction_score(weights: np.ndarray, tokens: np.ndarray) -> float:
    """How much a head attends to the keys that follow earlier occurrences of the query's token,
    found by comparing tokens (no period, no layout).

    Args:
        weights: ``(..., L, L)`` one head's attention weights, ``L >= 2``.
        tokens: ``(..., L)`` integer token ids, broadcastable to ``weights.shape[:-1]`` (``(L,)``
            for one sequence under every matrix; ``(B, 1, L)`` for weights ``(B, H, L, L)``).

    Returns:
        For every query ``t`` with at least one key ``j`` such that ``1 <= j <= t`` and
        ``tokens[j - 1] == tokens[t]``, the summed weight on those keys; averaged over those
        queries, every counted query of every matrix weighing the same (a float).

    Raises:
        ValueError: no query has such a key (no token occurs twice), or shapes that do not fit.
    """
    weights = _weights(weights)
    L = weights.shape[-1]
    tokens = np.asarray(tokens)
    require_ndim(tokens, "tokens", ("L",))
    if tokens.shape[-1] != L:
        raise ValueError(f"tokens: expected length L={L} (the weights' last axis), got {fmt(tokens.shape)}")
    try:
        tokens = np.broadcast_to(tokens, weights.shape[:-1])  # (..., L)
    except ValueError:
        raise ValueError(f"tokens: expected a shape that broadcasts to the weights' {fmt(weights.shape[:-1])}, "
                         f"got {fmt(tokens.shape)}") from None
    targets = induction_targets(tokens)  # (..., L, L)
    counted = targets.any(axis=-1)  # (..., L): queries with an earlier occurrence of their token
    if not counted.any():
        raise ValueError("tokens: no token occurs twice, so no query has a key after an earlier occurrence")
    return float((weights * targets).sum(axis=-1)[counted].mean())


def target_key_weight(weights: np.ndarray, period: int, start: int = 0) -> float:
    """How much a head attends, from the copyable positions, to keys that hold the target token.

    The weights were measured on the input ``tokens[:, :-1]`` of ``repeat_sequences(..., period,
    start)``: random tokens, then from ``start`` on a stretch of ``period`` tokens again and again.
    Row ``t`` predicts token ``t + 1``; it is copyable for ``t >= start + period``, and by the
    layout (not by comparing tokens) the keys ``start <= k <= t`` with ``(t + 1 - k) % period ==
    0`` hold that same token. Unlike ``prefix_matching_score``, which counts the one key after the
    previous occurrence, this counts every earlier copy of the target.

    Args:
        weights: ``(..., L, L)`` one head's attention weights.
        period: the period of the repeat, ``>= 1``.
        start: where the periodic stretch starts, ``>= 0``, with ``start + period < L``.

    Returns:
        The summed weight on those keys, averaged over the copyable rows and any leading axes.
    """
    weights = _weights(weights)
    L = weights.shape[-1]
    period = require_int(period, "period", minimum=1)
    start = require_int(start, "start", minimum=0)
    if start + period >= L:
        raise ValueError(f"start + period: expected < L={L} (a copyable row), got {start + period}")
    t = np.arange(start + period, L)[:, None]  # (T, 1): the copyable rows
    k = np.arange(L)[None, :]  # (1, L)
    holds = (k >= start) & (k <= t) & ((t + 1 - k) % period == 0)  # (T, L)
    return float((weights[..., start + period:, :] * holds).sum(-1).mean())


def soft_align(A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Soft alignment of two sentences (the "attend" step of decomposable attention).

    The simpler form of Parikh et al.'s attend step, in which the vectors scored (by dot
    products) are also the vectors averaged: each token of one sentence gets a softmax-weighted
    average of the other sentence's tokens.

    Args:
        A: ``(..., La, D)`` the first sentence, already through the feed-forward ``F``; ``La >= 1``.
        B: ``(..., Lb, D)`` the second sentence, the same; ``Lb >= 1``.

    Returns:
        ``(beta (..., La, D), alpha (..., Lb, D))``: ``beta[i]`` is the part of ``B`` aligned
        to ``A[i]``, ``alpha[j]`` the part of ``A`` aligned to ``B[j]``.
    """
    A, B = _float(A), _float(B)
    require_ndim(A, "A", ("La", "D"))
    require_ndim(B, "B", ("Lb", "D"))
    if A.shape[-1] != B.shape[-1]:
        raise ValueError(f"B: expected shape (..., Lb, D={A.shape[-1]}) like A {fmt(A.shape)}, got {fmt(B.shape)}")
    for name, M in (("A", A), ("B", B)):
        if M.shape[-2] < 1:
            raise ValueError(f"{name}: expected a sentence of at least one token, got {fmt(M.shape)}")
    E = A @ np.swapaxes(B, -1, -2)  # (..., La, D) x (..., D, Lb) -> (..., La, Lb)
    beta = softmax(E, axis=-1) @ B  # (..., La, Lb) x (..., Lb, D) -> (..., La, D)
    alpha = softmax(np.swapaxes(E, -1, -2), axis=-1) @ A  # (..., Lb, La) x (..., La, D) -> (..., Lb, D)
    return beta, alpha


def gd_construction(d: int, Gamma: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The weights ``(W_kq, W_pv)`` with which ``linear_self_attention`` predicts like
    ``gd_step_prediction(..., Gamma)``: ``W_kq`` holds ``Gamma`` in its top-left ``d x d``
    block and zeros elsewhere; ``W_pv`` is zero except its bottom-right entry, 1."""
    d = require_int(d, "d", minimum=1)
    Gamma = np.eye(d) if Gamma is None else _float(Gamma)
    if Gamma.shape != (d, d):
        raise ValueError(f"Gamma: expected shape (d={d}, d={d}), got {fmt(Gamma.shape)}")
    W_kq = np.zeros((d + 1, d + 1))
    W_kq[:d, :d] = Gamma
    W_pv = np.zeros((d + 1, d + 1))
    W_pv[d, d] = 1.0
    return W_kq, W_pv


def frozen_entries(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Which entries of ``W_kq`` and ``W_pv`` training can never move.

    For the layer of ``linear_self_attention`` on prompts of ``icl_prompt``, trained on the
    squared error of its prediction (the last entry of the query row's output): the entries
    whose gradient is zero for every prompt and every value of the weights.

    Returns:
        ``(frozen_kq, frozen_pv)``, two boolean ``(d+1, d+1)`` arrays, True where the entry of
        ``W_kq`` (of ``W_pv``) gets no gradient.
    """
    d = require_int(d, "d", minimum=1)
    frozen_kq = np.zeros((d + 1, d + 1), dtype=bool)
    frozen_kq[d, :] = True    # meets only the query's last entry, the 0 written for its target
    frozen_pv = np.zeros((d + 1, d + 1), dtype=bool)
    frozen_pv[:, :d] = True   # the prediction reads only the last column of the values
    return frozen_kq, frozen_pv


def read_gamma(W_kq: np.ndarray, W_pv: np.ndarray) -> np.ndarray:
    """The preconditioner ``Γ (d, d)`` a linear self-attention layer's weights implement:
    the top-left ``d x d`` block of ``W_kq`` times the bottom-right entry of ``W_pv`` (the blocks
    the construction of ``gd_construction`` uses; the others should be near zero)."""
    W_kq, W_pv = _float(W_kq), _float(W_pv)
    require_ndim(W_kq, "W_kq", ("d+1", "d+1"), batch=False)
    if W_pv.shape != W_kq.shape or W_kq.shape[0] != W_kq.shape[1] or W_kq.shape[0] < 2:
        raise ValueError(f"W_pv: expected square (d+1, d+1) like W_kq {fmt(W_kq.shape)}, got {fmt(W_pv.shape)}")
    d = W_kq.shape[0] - 1
    return W_kq[:d, :d] * W_pv[d, d]
