"""Scaled dot-product attention (numpy reference).

Shape letters: ``B`` batch, ``Lq`` queries, ``Lk`` keys/values, ``Dk`` query/key width,
``Dv`` value width. Any leading batch dimensions ``...`` are allowed.
"""
from __future__ import annotations

import numpy as np

from ._validate import require_int, require_ndim, require_qkv
from .masks import _softmax_rows, masked_softmax


def scaled_dot_product_attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``softmax(Q K^T / sqrt(Dk)) V``, with an optional boolean mask.

    Args:
        Q: ``(..., Lq, Dk)`` queries.
        K: ``(..., Lk, Dk)`` keys.
        V: ``(..., Lk, Dv)`` values.
        mask: boolean, broadcastable to ``(..., Lq, Lk)``, ``True`` = may attend. A query with
            no key to attend to gets all-zero weights and a zero output.

    Returns:
        ``(output (..., Lq, Dv), weights (..., Lq, Lk))``.

    Row ``i`` of the weights is the softmax, over the keys ``i`` may attend to, of the scaled
    similarities of query ``i`` with every key; row ``i`` of the output is the average of the
    values under those weights.

    Matches ``torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=mask)``,
    which returns no weights (recent torch also gives a fully masked row a zero output; older
    versions and ``nn.MultiheadAttention`` give NaN there).
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    require_qkv(Q, K, V)
    Dk = Q.shape[-1]
    # Scale Q rather than the scores: the same numbers, Lq*Dk divisions instead of Lq*Lk.
    scores = (Q / np.sqrt(Dk)) @ np.swapaxes(K, -1, -2)  # (..., Lq, Dk) x (..., Dk, Lk) -> (..., Lq, Lk)
    if mask is not None:
        weights = masked_softmax(scores, mask)  # (..., Lq, Lk)
    else:
        weights = _softmax_rows(scores, scores)  # (..., Lq, Lk), in place: no temporaries
    return weights @ V, weights  # (..., Lq, Lk) x (..., Lk, Dv) -> (..., Lq, Dv)


def attend(q: np.ndarray, K: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One query against a key-value store: a soft dictionary lookup.

    Args:
        q: ``(Dk,)``; K: ``(Lk, Dk)``; V: ``(Lk, Dv)``.

    Returns:
        ``(output (Dv,), weights (Lk,))`` with scores ``K q / sqrt(Dk)``.
    """
    q, K, V = (np.asarray(a, dtype=float) for a in (q, K, V))
    require_ndim(q, "q", ("Dk",), batch=False)
    require_ndim(K, "K", ("Lk", "Dk"), batch=False)
    require_ndim(V, "V", ("Lk", "Dv"), batch=False)
    out, w = scaled_dot_product_attention(q[None, :], K, V)  # (1, Dk) -> (1, Dv), (1, Lk)
    return out[0], w[0]


def score_variance(d_k: int, n_samples: int, rng: np.random.Generator) -> float:
    """Empirical variance of ``q . k`` for independent standard-normal ``q, k`` in ``R^d_k``.

    Draws ``n_samples`` independent pairs ``(q, k)`` from ``rng`` and returns the (biased,
    ``ddof=0``) sample variance of their dot products, a float.
    """
    d_k, n_samples = require_int(d_k, "d_k", minimum=1), require_int(n_samples, "n_samples", minimum=2)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng: expected a np.random.Generator, got {type(rng).__name__}")
    q = rng.standard_normal((n_samples, d_k))  # (n, d_k)
    k = rng.standard_normal((n_samples, d_k))  # (n, d_k)
    return float(np.var(np.sum(q * k, axis=-1)))
