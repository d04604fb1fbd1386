"""tiled_attention_backward (notebook 08): the gradients ``(dQ, dK, dV)`` of tiled attention, the
weights rebuilt a tile at a time from the log-sum-exp (FlashAttention's backward pass).

The cases hold ``Lq != Lk``, tile sizes that divide neither length, batches, causal masks with
keys above the diagonal filled with NaN (they must never be read), and one long case on which the
call may hold only a fraction of the ``(Lq, Lk)`` matrix (the grader measures it outside the
learner's process: :func:`attnlab.checks.efficient_attention.invoke_backward_measuring_memory`).
"""
from __future__ import annotations

import numpy as np

from .. import efficient as _ref
from ..checks._core import Case, Mistake, case_rng
from ..checks.efficient_attention import (  # noqa: F401 - the measured call's pair, read by the tests from here
    MEMORY_FRACTION, TooMuchMemory, backward_memory_verdict, call_backward, invoke_backward_measuring_memory,
)
from ._card import Card, Contract, Example

# A correct tiled_attention_backward as a learner writes it; each mistake's code changes one line.
BACKWARD = '''
def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    Lq, Dk = Q.shape[-2:]
    Lk, Dv = V.shape[-2:]
    scale = 1 / np.sqrt(Dk)
    D = (grad_output * output).sum(axis=-1)
    dQ, dK, dV = np.zeros(Q.shape), np.zeros(K.shape), np.zeros(V.shape)
    for i0 in range(0, Lq, tile_size):
        i1 = min(i0 + tile_size, Lq)
        last = min(Lk, i1) if causal else Lk
        for j0 in range(0, last, tile_size):
            j1 = min(j0 + tile_size, Lk)
            S = Q[..., i0:i1, :] @ np.swapaxes(K[..., j0:j1, :], -1, -2) * scale
            if causal and j1 - 1 > i0:
                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]
                S = np.where(visible, S, -np.inf)
            P = np.exp(S - logsumexp[..., i0:i1, None])
            dV[..., j0:j1, :] += np.swapaxes(P, -1, -2) @ grad_output[..., i0:i1, :]
            dP = grad_output[..., i0:i1, :] @ np.swapaxes(V[..., j0:j1, :], -1, -2)
            dS = P * (dP - D[..., i0:i1, None]) * scale
            dQ[..., i0:i1, :] += dS @ K[..., j0:j1, :]
            dK[..., j0:j1, :] += np.swapaxes(dS, -1, -2) @ Q[..., i0:i1, :]
    return dQ, dK, dV
'''


def _backward(*changes: str) -> str:
    """:data:`BACKWARD` with each ``old`` of the ``(old, new, old, new, ...)`` pairs replaced."""
    code = BACKWARD
    for old, new in zip(changes[::2], changes[1::2]):
        assert old in code, old
        code = code.replace(old, new)
    return code


_D = "D = (grad_output * output).sum(axis=-1)"
_DS = "dS = P * (dP - D[..., i0:i1, None]) * scale"
_LAST = "last = min(Lk, i1) if causal else Lk"
_MASK_IN_DIAGONAL_TILE = "if causal and j1 - 1 > i0:"
_ALL = ("test_tiled_attention_backward", "test_tiled_attention_backward_causal")
_CAUSAL_CELLS = ("test_tiled_attention_backward_causal",)


def _full_matrix(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
    """What the check's memory measurement says of code that forms the (Lq, Lk) weights."""
    raise TooMuchMemory("the full (Lq, Lk) matrix")


_MEMORY_ONLY = [
    Mistake(
        "materialising the full (Lq, Lk) weights in the backward pass (no tiling)",
        principle="Rebuild the weights a tile at a time from the log-sum-exp and drop each tile "
                  "after use: the point of the backward pass is never to hold P or dS whole.",
        fix="rebuild P one tile at a time inside the loops, `np.exp(S_tile - logsumexp[..., i0:i1, None])`, "
            "and accumulate dQ, dK, dV tile by tile; never form `Q @ K.T` for all keys at once.",
        fails=("test_tiled_attention_backward_memory",), impl=_full_matrix, label="no tiling at all",
        code='''
            def tiled_attention_backward(Q, K, V, output, logsumexp, grad_output, tile_size, causal=False):
                S = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
                if causal:
                    S = np.where(attnlab.causal_mask(Q.shape[-2], K.shape[-2]), S, -np.inf)
                P = np.exp(S - logsumexp[..., None])
                dP = grad_output @ np.swapaxes(V, -1, -2)
                dS = P * (dP - (grad_output * output).sum(axis=-1, keepdims=True)) / np.sqrt(Q.shape[-1])
                return dS @ K, np.swapaxes(dS, -1, -2) @ Q, np.swapaxes(P, -1, -2) @ grad_output
            '''),
]

_CAUSAL_ONLY = [
    Mistake(
        "causal mask not applied in backward (the diagonal tile left unmasked)",
        principle="The weights rebuilt in the backward pass must be those of the forward pass: "
                  "masked keys (j > i) get weight 0 there too.",
        fix="inside the tile that crosses the diagonal, set the scores of keys j > i to -inf "
            "before `np.exp(S - logsumexp)`, as in the forward pass.",
        fails=_CAUSAL_CELLS, code=_backward(
            f"            {_MASK_IN_DIAGONAL_TILE}\n"
            "                visible = np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None]\n"
            "                S = np.where(visible, S, -np.inf)\n", "")),
    Mistake(
        "ignoring `causal` in the backward pass (every query sees every key)",
        principle="The backward pass uses the forward pass's mask: query i has weights only on "
                  "keys j <= i.",
        fix="with causal=True, skip the key tiles above the diagonal and mask keys j > i in the "
            "diagonal tile.",
        fails=_CAUSAL_CELLS, code=_backward(_LAST, "last = Lk", _MASK_IN_DIAGONAL_TILE, "if False:")),
    Mistake(
        "reading the tiles above the diagonal (masking them instead of skipping them)",
        principle="A key tile entirely above the diagonal contributes nothing: skip it without "
                  "reading its keys and values.",
        fix="stop the key loop at `min(Lk, i1)`: a key tile starting at j0 >= i1 is entirely masked. "
            "Here those keys hold NaN, which a masked tile still multiplies in (0 * NaN = NaN).",
        fails=_CAUSAL_CELLS, code=_backward(_LAST, "last = Lk", _MASK_IN_DIAGONAL_TILE, "if causal:")),
]

_PLAIN = [
    Mistake(
        "D_i from the wrong product (dO · V summed over the keys) instead of Σ_d dO_id O_id",
        principle="D_i is the row sum of the incoming gradient times the output, dO_i · O_i "
                  "(= Σ_j P_ij dP_ij): the product of dO with O, not with V.",
        fix="`D = (grad_output * output).sum(axis=-1)`, one number per query, computed once before the "
            "loops.",
        fails=_ALL, code=_backward(_D, "D = (grad_output @ np.swapaxes(V, -1, -2)).sum(axis=-1)")),
    Mistake(
        "D_i as the row sum of dO alone (the output O left out)",
        principle="D_i = Σ_d dO_id O_id: multiply the incoming gradient by the output before "
                  "summing over the row.",
        fix="`D = (grad_output * output).sum(axis=-1)`.",
        fails=_ALL, code=_backward(_D, "D = grad_output.sum(axis=-1)")),
    Mistake(
        "D_i summed over one tile of keys only (Σ_j P_ij dP_ij within the tile)",
        principle="D_i sums over every key the query sees, not over the current tile: take it "
                  "from dO and O, which already hold all the keys.",
        fix="compute `D = (grad_output * output).sum(axis=-1)` once, before the loops: it is a sum "
            "over all the keys, which dO · O gives without visiting them.",
        fails=_ALL, code=_backward(_DS, "dS = P * (dP - (P * dP).sum(axis=-1, keepdims=True)) * scale")),
    Mistake(
        "dS without D_i (dS = P * dP)",
        principle="The softmax couples the weights of a row: its backward subtracts the row's "
                  "D_i from dP before multiplying by P.",
        fix="the softmax's backward is `dS = P * (dP - D[..., None])` with D = Σ_d dO_id O_id.",
        fails=_ALL, code=_backward(_DS, "dS = P * dP * scale")),
    Mistake(
        "the scale forgotten in dS (dQ and dK without the 1/√Dk)",
        principle="The scores carry the factor 1/√Dk: the chain rule carries it into the "
                  "gradients of Q and K (not into dV).",
        fix="the scores are `Q K^T / sqrt(Dk)`, so `dQ += dS @ K_tile / np.sqrt(Dk)` and "
            "`dK += dS^T @ Q_tile / np.sqrt(Dk)`.",
        fails=_ALL, code=_backward(_DS, "dS = P * (dP - D[..., i0:i1, None])")),
    Mistake(
        "dK and dQ swapped (returned in the wrong order)",
        principle="Return the gradients in the order of the inputs Q, K, V, each with its "
                  "input's shape.",
        fix="return `(dQ, dK, dV)`: dQ has the shape of Q (..., Lq, Dk), dK that of K (..., Lk, Dk).",
        fails=_ALL, code=_backward("return dQ, dK, dV", "return dK, dQ, dV")),
    Mistake(
        "the log-sum-exp of the wrong tile (indexed by the key tile, logsumexp[j0:j1])",
        principle="Each weight is exp(s_ij - logsumexp_i): the log-sum-exp belongs to the query "
                  "row i, so take the query tile's entries.",
        fix="logsumexp has one entry per query: rebuild the tile's weights with "
            "`logsumexp[..., i0:i1, None]`, the rows of the query tile.",
        fails=_ALL, code=_backward("P = np.exp(S - logsumexp[..., i0:i1, None])",
                                   "P = np.exp(S - logsumexp[..., j0:j1, None])")),
]

_ARGS = ("Q", "K", "V", "output", "logsumexp", "grad_output", "tile_size")

CARD = Card(
    "tiled_attention_backward", "08_efficient_attention",
    summary="dQ, dK, dV of softmax(Q Kᵀ/√Dk) V a tile at a time: P rebuilt from the log-sum-exp, "
            "dS = P (dP - D) with D = Σ dO·O; causal=True skips the tiles above the diagonal",
    contract=Contract(
        args=_ARGS, reference=_ref.tiled_attention_backward, outputs=("dQ", "dK", "dV"),
        rtol=1e-10, atol=1e-10,
        shapes="Q (..., Lq, Dk), K (..., Lk, Dk), V (..., Lk, Dv), output and grad_output (..., Lq, Dv), "
               "logsumexp (..., Lq) from tiled_attention; tile_size an integer >= 1; causal as in the "
               "forward pass",
        returns=f"(dQ, dK, dV), each of its input's shape, equal to autograd of naive attention to "
                f"1e-10; on long sequences the call holds less than 1/{MEMORY_FRACTION} of the (Lq, Lk) "
                f"matrix at once, and with causal=True it never reads a key tile above the diagonal"),
    mistakes=_MEMORY_ONLY + _CAUSAL_ONLY + _PLAIN,
    examples=[
        # not the card's "diagonal tile left unmasked" (the two differ when Lq < Lk): named by where it is right
        Example(_backward(_MASK_IN_DIAGONAL_TILE, "if causal and j1 > i1:"), _CAUSAL_CELLS,
                "matches the right answer exactly at index",
                label="causal mask not applied in backward (tiles skipped by the wrong condition)"),
    ],
)


def _case(rng, qb, kb, Lq, Lk, Dk, Dv, T, causal=False, why=""):
    Q = rng.normal(size=(*qb, Lq, Dk))
    K, V = rng.normal(size=(*kb, Lk, Dk)), rng.normal(size=(*kb, Lk, Dv))
    output, lse = _ref.tiled_attention(Q, K, V, T, causal=causal)
    dO = rng.normal(size=output.shape)
    return Case((Q, K, V, output, lse, dO, T), {"causal": True} if causal else {}, why=why)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(841 if hidden else 121, hidden)
    specs = ([((), (), 8, 5, 3, 2, 3, "Lq > Lk, a tile size that divides neither length"),
              ((), (), 6, 6, 4, 3, 4, "Lq == Lk, a tile size that does not divide them"),
              ((2,), (2,), 5, 9, 2, 4, 2, "a batch, Lq < Lk"),
              ((3, 2), (3, 2), 4, 3, 3, 2, 1, "two batch axes, tiles of one"),
              ((), (), 1, 6, 2, 3, 16, "one query, one tile larger than both lengths")] if hidden else
             [((), (), 7, 5, 3, 2, 3, "Lq > Lk, a tile size that divides neither length"),
              ((), (), 6, 6, 2, 3, 4, "Lq == Lk, a tile size that does not divide them"),
              ((2,), (2,), 4, 9, 3, 2, 2, "a batch, Lq < Lk"),
              ((2, 3), (2, 3), 3, 4, 2, 3, 1, "two batch axes, tiles of one"),
              ((), (), 1, 5, 3, 2, 8, "one query, one tile larger than both lengths")])
    return [_case(rng, *spec[:7], why=spec[7]) for spec in specs]


def causal_cases(hidden: bool) -> list[Case]:
    rng = case_rng(842 if hidden else 122, hidden)
    specs = ([((), 8, 8, 3, 2, 3), ((2,), 9, 5, 2, 3, 2), ((), 4, 7, 3, 3, 2)] if hidden else
             [((), 7, 7, 4, 2, 3), ((2,), 8, 5, 3, 2, 2), ((), 5, 9, 2, 3, 2)])
    out = [_case(rng, b, b, Lq, Lk, Dk, Dv, T, True,
                 "causal, Lq == Lk" if Lq == Lk else f"causal, Lq {'>' if Lq > Lk else '<'} Lk")
           for b, Lq, Lk, Dk, Dv, T in specs]
    for Lq, Lk, T in ([(5, 11, 2)] if hidden else [(5, 12, 2)]):
        case = _case(rng, (), (), Lq, Lk, 3, 2, T, True)
        Q, K, V, output, lse, dO, _ = case.args
        first_unseen = -(-Lq // T) * T  # key tiles from here on lie above the diagonal for every query
        K, V = K.copy(), V.copy()
        K[first_unseen:], V[first_unseen:] = np.nan, np.nan
        out.append(Case((Q, K, V, output, lse, dO, T), {"causal": True},
                        why=f"causal, Lq < Lk: keys {first_unseen}.. are above the diagonal for every "
                        "query tile and hold NaN, so they must never be read"))
    return out


_MEMORY_INPUTS: dict[str, tuple] = {}  # the long inputs by generator state: the forward pass is slow


def memory_cases(hidden: bool) -> list[Case]:
    rng = case_rng(843 if hidden else 123, hidden)
    Lq, Lk, T = (2304, 3200, 128) if hidden else (2048, 3072, 128)
    key = repr(rng.bit_generator.state)
    if key not in _MEMORY_INPUTS:
        _MEMORY_INPUTS[key] = _case(rng, (), (), Lq, Lk, 16, 8, T).args
    args = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in _MEMORY_INPUTS[key])  # fresh copies
    return [Case(args, why=f"long sequences; the call may hold at most 1/{MEMORY_FRACTION} of the "
                 "(Lq, Lk) matrix at once")]


def check_tiled_attention_backward(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward`` equals autograd of naive attention (to 1e-10)."""
    CARD.check(tiled_attention_backward, cases(hidden), hidden=hidden, mistakes=_PLAIN,
               passed="dQ, dK and dV equal the gradients of softmax(Q Kᵀ/√Dk) V to 1e-10")


def check_tiled_attention_backward_causal(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward(..., causal=True)`` masks keys j > i and skips the
    tiles above the diagonal."""
    CARD.check(tiled_attention_backward, causal_cases(hidden), hidden=hidden, mistakes=_CAUSAL_ONLY + _PLAIN,
               passed="causal: the gradients of the masked attention, no tile above the diagonal read")


def check_tiled_attention_backward_memory(tiled_attention_backward, hidden: bool = False) -> None:
    """Check that ``tiled_attention_backward`` never holds an ``(Lq, Lk)`` array (peak memory)."""
    CARD.check(tiled_attention_backward, memory_cases(hidden), hidden=hidden, mistakes=_MEMORY_ONLY + _PLAIN,
               invoke=invoke_backward_measuring_memory,
               passed=f"peak memory below 1/{MEMORY_FRACTION} of the (Lq, Lk) matrix")
