"""tiled_attention (notebook 08): scaled dot-product attention a tile of queries and a tile of
keys at a time (the online softmax), returning ``(output, logsumexp)``; with ``causal=True``
the key tiles above the diagonal are skipped, never read.

The cases hold ``Lq != Lk``, ``Dk != Dv``, tile sizes that divide neither length, batches, scores
around -3000 (where any exponential without the max underflows). Two checks watch *how* it
computes, not only what it returns:

* ``check_tiled_attention_memory`` measures the peak memory of the call and fails if it reaches
  a quarter of the ``(Lq, Lk)`` score matrix (the grader measures it outside the learner's
  process: :func:`attnlab.checks.efficient_attention.invoke_measuring_memory`);
* ``check_tiled_attention_causal`` includes keys that no query may see (``Lq < Lk``), filled
  with NaN: a version that reads the tiles above the diagonal, even to mask them, returns NaN.
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import (  # noqa: F401 - the measured call's pair, read by the tests from here
    MEMORY_FRACTION, TooMuchMemory, call_tiled, invoke_measuring_memory, memory_verdict, qkv,
)
from ._card import Card, Contract, Example

# A correct tiled_attention as a learner writes it; each mistake's code below changes one line.
TILED = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    output = np.zeros((*batch, Lq, Dv))
    logsumexp = np.zeros((*batch, Lq))
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        m = np.full((*batch, i1 - i0), -np.inf)
        l = np.zeros((*batch, i1 - i0))
        acc = np.zeros((*batch, i1 - i0, Dv))
        last = min(Lk, i1) if causal else Lk
        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
            if causal and j1 - 1 > i0:
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(visible, S, -np.inf)
            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
        output[..., i0:i1, :] = acc / l[..., None]
        logsumexp[..., i0:i1] = m + np.log(l)
    return output, logsumexp
'''

# Attention in one piece, with the log-sum-exp: the right values, but no tiles.
NO_TILING = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if causal:
        S = np.where(attnlab.causal_mask(Q.shape[-2], K.shape[-2]), S, -np.inf)
    m = S.max(axis=-1, keepdims=True)
    e = np.exp(S - m)
    l = e.sum(axis=-1, keepdims=True)
    return (e / l) @ V, (m + np.log(l))[..., 0]
'''

# Each tile of keys normalised on its own (a softmax per tile), the tiles' outputs added.
_PER_TILE = '''
def tiled_attention(Q, K, V, tile_size, causal=False):
    Dk = Q.shape[-1]
    out = 0
    for j0 in range(0, K.shape[-2], tile_size):
        S = Q @ np.swapaxes(K[..., j0:j0 + tile_size, :], -1, -2) / np.sqrt(Dk)
        out = out + attnlab.softmax(S) @ V[..., j0:j0 + tile_size, :]
    S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dk)
    m = S.max(axis=-1)
    return out, m + np.log(np.exp(S - m[..., None]).sum(axis=-1))
'''


def _tiled(*changes: str, base: str = TILED) -> str:
    """``base`` with each ``old`` of the ``(old, new, old, new, ...)`` pairs replaced."""
    for old, new in zip(changes[::2], changes[1::2]):
        assert old in base, old
        base = base.replace(old, new)
    return base


_MASK_IN_DIAGONAL_TILE = "if causal and j1 - 1 > i0:"
_VISIBLE = "visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]"
_LAST = "last = min(Lk, i1) if causal else Lk"
_PLAIN_CELLS = ("test_tiled_attention",)
_CAUSAL_CELLS = ("test_tiled_attention_causal",)
_BOTH = _PLAIN_CELLS + _CAUSAL_CELLS


def _full_matrix(Q, K, V, tile_size, causal=False):
    """What the check's memory measurement says of code that forms the score matrix."""
    raise TooMuchMemory("the full score matrix")


_MEMORY_ONLY = [
    Mistake(
        "materialising the full (Lq, Lk) score matrix (no tiling)",
        principle="Work tile by tile so that no (Lq, Lk) array ever exists.",
        fix="compute the scores one tile at a time inside the loops, "
            "`Q[..., i0:i1, :] @ K[..., j0:j1, :].swapaxes(-1, -2)`, and never `Q @ K.T` for all "
            "keys at once; keep only m, l, acc of the current query tile.",
        fails=("test_tiled_attention_memory",), impl=_full_matrix, label="no tiling at all",
        code=NO_TILING),
]

_CAUSAL_ONLY = [
    Mistake(
        "ignoring `causal` (every query sees every key)",
        principle="With causal=True, query i may see keys j <= i only.",
        fix="with causal=True, query i may only see keys j <= i: mask the scores of keys j > i "
            "with -inf.",
        fails=_CAUSAL_CELLS, code=_tiled(
            f"        {_LAST}\n        for j0 in range(0, last, tile_size):",
            "        for j0 in range(0, Lk, tile_size):",
            f"            {_MASK_IN_DIAGONAL_TILE}\n                {_VISIBLE}\n"
            "                S = np.where(visible, S, -np.inf)\n", "")),
    Mistake(
        "skipping the diagonal tile (an off-by-one in the key loop)",
        principle="The tile on the diagonal holds keys the query may see: visit it (masked).",
        fix="the tile that holds the diagonal is only partly masked: loop over key tiles that start "
            "before the query tile ends, `range(0, min(Lk, i1), tile_size)`, and mask inside the "
            "diagonal tile.",
        fails=_CAUSAL_CELLS, code=_tiled(_LAST, "last = min(Lk, i0) if causal else Lk")),
    Mistake(
        "visiting one key tile past the diagonal (an off-by-one in the key loop)",
        principle="Stop at the diagonal tile; tiles beyond it hold only future keys.",
        fix="the last key tile a query tile [i0, i1) needs is the one holding key i1 - 1: stop the "
            "key loop at `min(Lk, i1)`; the keys after it are all masked and must not be read.",
        fails=_CAUSAL_CELLS, code=_tiled(_LAST, "last = min(Lk, i1 + tile_size) if causal else Lk")),
    Mistake(
        "reading the tiles above the diagonal (masking them instead of skipping them)",
        principle="Tiles entirely in the future need not be read at all: skip them.",
        fix="a key tile that starts at j0 >= i1 is entirely masked for the query tile [i0, i1): "
            "skip it (stop the key loop at `min(Lk, i1)`) instead of computing and masking it. "
            "Here those keys hold NaN, which a masked tile still multiplies into acc (0 * NaN = NaN).",
        fails=_CAUSAL_CELLS, code=_tiled(_LAST, "last = Lk")),
    Mistake(
        "leaving the diagonal tile unmasked (masking only tiles that stick out past the query tile)",
        principle="The diagonal tile contains future keys too: mask it.",
        fix="inside the tile that crosses the diagonal, query i still must not see keys j > i: mask "
            "it with `j <= i` using the global indices i0 + r and j0 + c.",
        fails=_CAUSAL_CELLS, code=_tiled(_MASK_IN_DIAGONAL_TILE, "if causal and j1 > i1:")),
    Mistake(
        "a strict mask j < i (a query cannot see its own key)",
        principle="A query may attend to its own position.",
        fix="the causal mask is `j <= i`: query i sees keys 0..i, itself included.",
        fails=_CAUSAL_CELLS, code=_tiled(
            _VISIBLE, "visible = np.arange(j0, j1)[None, :] < np.arange(i0, i1)[:, None]",
            _MASK_IN_DIAGONAL_TILE, "if causal:")),
    Mistake(
        "masking with the tile's local indices instead of the global ones",
        principle="Compare global positions of queries and keys, not positions inside the tile.",
        fix="compare global positions: query i0 + r against key j0 + c. With local indices a tile "
            "below the diagonal (fully visible) is masked as if it were the diagonal tile.",
        fails=_CAUSAL_CELLS, code=_tiled(
            _VISIBLE, "visible = np.arange(j1 - j0)[None, :] <= np.arange(i1 - i0)[:, None]",
            _MASK_IN_DIAGONAL_TILE, "if causal:")),
    Mistake(
        "a bottom-right aligned causal mask (j <= i + Lk - Lq)",
        principle="The causal mask is top-left aligned: query i sees keys 0..i.",
        fix="the course's causal mask is top-left aligned, as `attnlab.causal_mask(Lq, Lk)` and "
            "`is_causal=True`: query i sees keys j <= i whatever Lq and Lk.",
        fails=_CAUSAL_CELLS, code=_tiled(
            _VISIBLE, "visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None] + (Lk - Lq)",
            _MASK_IN_DIAGONAL_TILE, "if causal:")),
]

_PLAIN = [
    Mistake(
        "returning only the output, not (output, logsumexp)",
        principle="The contract returns a pair: the output and the log-sum-exp per query.",
        fix="return a tuple `(output, logsumexp)` with logsumexp = m + log(l) of shape (..., Lq).",
        fails=_BOTH, code=_tiled("    return output, logsumexp", "    return output")),
    Mistake(
        "returning the (Lq, Lk) weights instead of the log-sum-exp",
        principle="Return one log-sum-exp per query, never the full weight matrix.",
        fix="the second item is logsumexp = m + np.log(l), one number per query (..., Lq): the "
            "weights are exactly what tiling avoids storing.",
        fails=_BOTH, code='''
            def tiled_attention(Q, K, V, tile_size, causal=False):
                mask = attnlab.causal_mask(Q.shape[-2], K.shape[-2]) if causal else None
                return attnlab.scaled_dot_product_attention(Q, K, V, mask)  # (output, weights)
            '''),
    Mistake(
        "forgetting the 1/√Dk scale of the scores",
        principle="Scores are divided by √Dk.",
        fix="divide each tile of scores by `np.sqrt(Dk)` (or scale Q once before the loops).",
        fails=_BOTH, code=_tiled(" / np.sqrt(Dk)", "")),
    Mistake(
        "initialising the running max at 0 instead of -inf",
        principle="Before any key, the running max is -inf.",
        fix="start every query tile with `m = np.full(..., -np.inf)`: with m = 0, scores far below "
            "0 (here about -3000) underflow to exp(s - 0) = 0 and l stays 0.",
        fails=_PLAIN_CELLS, code=_tiled("m = np.full((*batch, i1 - i0), -np.inf)",
                                        "m = np.zeros((*batch, i1 - i0))")),
    Mistake(
        "not rescaling l and acc when a later tile raises the max",
        principle="When a tile raises the running max, scale both l and the accumulator down.",
        fix="keep the old max until the rescale factor is computed: `m_new = np.maximum(m, "
            "s.max(-1))`, `alpha = np.exp(m - m_new)`, then `l = alpha * l + ...`, "
            "`acc = alpha[..., None] * acc + ...` (or call `attnlab.online_softmax_update`).",
        fails=_BOTH, code=_tiled(
            "            m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])\n",
            "            m = np.maximum(m, S.max(axis=-1))\n"
            "            p = np.exp(S - m[..., None])\n"
            "            l = l + p.sum(axis=-1)\n"
            "            acc = acc + p @ V[..., j0:j1, :]\n")),
    Mistake(
        "dropping the last, partial tile of keys",
        principle="Every key must be visited, including a last tile shorter than the tile size.",
        fix="loop `for j0 in range(0, Lk, tile_size)` with `j1 = min(j0 + tile_size, Lk)`: when "
            "tile_size does not divide Lk the last tile is shorter, not missing.",
        fails=_BOTH, code=_tiled(
            "        for j0 in range(0, last, tile_size):\n            j1 = min(j0 + tile_size, Lk)",
            "        for j0 in range(0, last - tile_size + 1, tile_size):\n            j1 = j0 + tile_size")),
    Mistake(
        "not resetting m, l and acc for each tile of queries",
        principle="Each tile of queries starts from fresh statistics.",
        fix="create fresh statistics (m = -inf, l = 0, acc = 0) at the start of every query tile: "
            "each query's sums run over its own scores only.",
        fails=_BOTH, code='''
            def tiled_attention(Q, K, V, tile_size, causal=False):
                Lq, Dk = Q.shape[-2:]
                Lk, Dv = V.shape[-2:]
                batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
                output = np.zeros((*batch, Lq, Dv))
                logsumexp = np.zeros((*batch, Lq))
                m = np.full((*batch, min(tile_size, Lq)), -np.inf)     # created once, for every query tile
                l = np.zeros((*batch, min(tile_size, Lq)))
                acc = np.zeros((*batch, min(tile_size, Lq), Dv))
                for i0 in range(0, Lq, tile_size):
                    i1 = min(i0 + tile_size, Lq)
                    m, l, acc = m[..., :i1 - i0], l[..., :i1 - i0], acc[..., :i1 - i0, :]
                    for j0 in range(0, min(Lk, i1) if causal else Lk, tile_size):
                        j1 = min(j0 + tile_size, Lk)
                        S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) / np.sqrt(Dk)
                        if causal:
                            S = np.where(np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None], S, -np.inf)
                        m, l, acc = attnlab.online_softmax_update(m, l, acc, S, V[..., j0:j1, :])
                    output[..., i0:i1, :] = acc / l[..., None]
                    logsumexp[..., i0:i1] = m + np.log(l)
                return output, logsumexp
            '''),
    Mistake(
        "normalising each tile of keys on its own and adding the tiles' outputs",
        principle="Tiles share one normaliser: keep unnormalised sums and divide once at the end.",
        fix="a softmax per tile gives weights that sum to one per tile; carry (m, l, acc) across the "
            "tiles with the online update and divide by l once, at the end.",
        fails=_BOTH, code=_PER_TILE),
    Mistake(
        "averaging the tiles' outputs (each tile normalised on its own)",
        principle="Tiles share one normaliser: keep unnormalised sums and divide once at the end.",
        fix="tiles do not count equally: carry (m, l, acc) across the tiles with the online update "
            "and divide acc by l once, at the end.",
        fails=_BOTH, code=_tiled(
            "    out = 0\n", "    out, n_tiles = 0, 0\n",
            "        out = out + attnlab.softmax(S) @ V[..., j0:j0 + tile_size, :]\n",
            "        out = out + attnlab.softmax(S) @ V[..., j0:j0 + tile_size, :]\n        n_tiles += 1\n",
            "    return out, ", "    return out / n_tiles, ", base=_PER_TILE)),
    Mistake(
        "not dividing acc by l at the end",
        principle="The output is the accumulator divided by the sum of exponentials.",
        fix="the output is `acc / l[..., None]`, computed once after the last key tile.",
        fails=_BOTH, code=_tiled("output[..., i0:i1, :] = acc / l[..., None]", "output[..., i0:i1, :] = acc")),
    Mistake(
        "returning log(l) without adding the running max",
        principle="The log-sum-exp is the running max plus log(l).",
        fix="l is relative to the max m: the log-sum-exp of the scores is `m + np.log(l)`.",
        fails=_BOTH, code=_tiled("logsumexp[..., i0:i1] = m + np.log(l)",
                                        "logsumexp[..., i0:i1] = np.log(l)")),
]

CARD = Card(
    "tiled_attention", "08_efficient_attention",
    summary="softmax(Q Kᵀ/√Dk) V a tile of queries and a tile of keys at a time (the online "
            "softmax), with the log-sum-exp of each query's scores; causal=True skips the tiles "
            "above the diagonal",
    contract=Contract(
        args=("Q", "K", "V", "tile_size"), reference=_ref.tiled_attention, invoke=invoke_numpy,
        outputs=("output", "logsumexp"), rtol=1e-10, atol=1e-10,
        shapes="Q (..., Lq, Dk), K (..., Lk, Dk), V (..., Lk, Dv); tile_size an integer >= 1 that "
               "need not divide Lq or Lk; causal=True lets query i see keys j <= i (top-left aligned)",
        returns=f"(output (..., Lq, Dv), logsumexp (..., Lq)) equal to scaled dot-product attention "
                f"to 1e-10; on long sequences the call holds less than 1/{MEMORY_FRACTION} of the "
                f"(Lq, Lk) score matrix at once, and with causal=True it never reads a key tile above "
                f"the diagonal"),
    mistakes=_MEMORY_ONLY + _CAUSAL_ONLY + _PLAIN,
    examples=[
        Example(NO_TILING, _CAUSAL_CELLS, "reading the tiles above the diagonal",
                label="no tiling at all, causal"),
        Example('''
            import torch

            def tiled_attention(Q, K, V, tile_size, causal=False):
                Q, K, V = (torch.as_tensor(a) for a in (Q, K, V))
                scores = Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5
                if causal:
                    scores = scores.masked_fill(~torch.ones(scores.shape[-2:], dtype=torch.bool).tril(), float("-inf"))
                return (torch.softmax(scores, dim=-1) @ V).numpy(), torch.logsumexp(scores, dim=-1).numpy()
            ''', ("test_tiled_attention_memory",), "materialising the full (Lq, Lk) score matrix",
                label="torch, untiled"),  # real-world class (issue 12): untiled torch, invisible to tracemalloc
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(821 if hidden else 101, hidden)
    specs = ([((), 6, 10, 3, 2, 4, "a tile size that divides neither length"),
              ((3,), 5, 4, 2, 3, 2, "a batch"),
              ((), 3, 7, 4, 5, 1, "tiles of one"),
              ((), 4, 6, 2, 3, 16, "one tile larger than both lengths")] if hidden else
             [((), 5, 7, 3, 4, 3, "Lq != Lk, a tile size that divides neither"),
              ((2,), 6, 8, 4, 2, 4, "a batch; the tile size divides Lk"),
              ((), 4, 9, 2, 3, 1, "tiles of one"),
              ((), 3, 4, 5, 2, 10, "one tile larger than both lengths")])
    out = [Case((*qkv(rng, b, Lq, Lk, Dk, Dv), T), why=why) for b, Lq, Lk, Dk, Dv, T, why in specs]
    Q, K, V = qkv(rng, (), 5 if hidden else 4, 7 if hidden else 6, 4, 3, shift=40.0)
    out.append(Case((Q, K, V, 2 if hidden else 3),
                    why="scores around -3000: exp(s) underflows unless the running max is subtracted"))
    return out


def causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(822 if hidden else 102, hidden)
    specs = ([((), 8, 8, 3, 2, 3), ((2,), 9, 5, 2, 3, 2), ((), 4, 7, 3, 3, 2)] if hidden else
             [((), 7, 7, 4, 2, 3), ((2,), 8, 5, 3, 2, 2), ((), 5, 9, 2, 3, 2)])
    out = [Case((*qkv(rng, b, Lq, Lk, Dk, Dv), T), {"causal": True},
                why="causal, Lq == Lk" if Lq == Lk else f"causal, Lq {'>' if Lq > Lk else '<'} Lk")
           for b, Lq, Lk, Dk, Dv, T in specs]
    for Lq, Lk, T in ([(5, 11, 2), (6, 10, 3)] if hidden else [(5, 12, 2), (6, 11, 3)]):
        Q, K, V = qkv(rng, (), Lq, Lk, 3, 2)
        first_unseen = -(-Lq // T) * T  # key tiles from here on lie above the diagonal for every query
        K[first_unseen:] = np.nan
        V[first_unseen:] = np.nan
        out.append(Case((Q, K, V, T), {"causal": True},
                        why=f"causal, Lq < Lk: keys {first_unseen}.. are above the diagonal for every "
                        "query tile and hold NaN, so they must never be read"))
    return out


def memory_cases(hidden: bool) -> list[Case]:
    rng = case_rng(823 if hidden else 103, hidden)
    # Large enough that the score matrix (48-56 MiB) dwarfs what a process's first calls fault in
    # (library pages, allocator caches), so the grader can measure it from outside the process.
    Lq, Lk, T = (2304, 3200, 128) if hidden else (2048, 3072, 128)
    return [Case((*qkv(rng, (), Lq, Lk, 16, 8), T),
                 why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                 "(Lq, Lk) score matrix at once")]


def check_tiled_attention(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention`` equals scaled dot-product attention (to 1e-10) and returns
    ``(output, logsumexp)``."""
    CARD.check(tiled_attention, cases(hidden), hidden=hidden, mistakes=_PLAIN,
               passed="equals softmax(Q Kᵀ/√Dk) V and its log-sum-exp to 1e-10")


def check_tiled_attention_causal(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention(..., causal=True)`` masks keys j > i and skips the tiles above
    the diagonal."""
    CARD.check(tiled_attention, causal_cases(hidden), hidden=hidden, mistakes=_CAUSAL_ONLY + _PLAIN,
               passed="causal: equals the masked attention and never reads a tile above the diagonal")


def check_tiled_attention_memory(tiled_attention, hidden: bool = False) -> None:
    """Check that ``tiled_attention`` never holds the ``(Lq, Lk)`` score matrix (peak memory)."""
    CARD.check(tiled_attention, memory_cases(hidden), hidden=hidden, mistakes=_MEMORY_ONLY + _PLAIN,
               invoke=invoke_measuring_memory,
               passed=f"peak memory below 1/{MEMORY_FRACTION} of the (Lq, Lk) score matrix")
