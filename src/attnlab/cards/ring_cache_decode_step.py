"""ring_cache_decode_step (notebook 11): one decoding step of grouped-query attention with RoPE
and a sliding window of ``W`` tokens, whose keys and values live in a ring of ``W`` slots: the
token at position ``p`` in slot ``p % W``, its key rotated at ``p``.

The check decodes whole sequences step by step (:func:`run_steps`): it hands the learner's
function rings whose empty slots hold leftovers (a buffer reused from an earlier sequence), feeds
back the rings each step returns, and compares every step's output and the rings after the last
step with the reference. Every mistake is flag-style (``partial(_run_variant, ...)``), decoded the
same way.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from .. import modern as _ref
from ..checks._contract import numpy_exercise
from ..checks._core import Case, CheckRaised, Mistake, case_rng
from ._card import Card, Contract, swapped

_FAILS = ("test_ring_cache_decode_step",)


class StepResult(CheckRaised):
    """ring_cache_decode_step returned something other than ``(out, cache_k, cache_v)``."""


@numpy_exercise
def run_steps(step, Q, K, V, leftover_k, leftover_v):
    """Decode ``L`` tokens with ``step``: ``Q (B, Hq, L, Dh)``, ``K (B, Hkv, L, Dh)``,
    ``V (B, Hkv, L, Dv)`` the unrotated projections of every position, the rings starting as
    ``leftover_k (B, Hkv, W, Dh)`` and ``leftover_v (B, Hkv, W, Dv)``. Returns ``(outputs
    (B, Hq, L, Dv), cache_k, cache_v)``: every step's output and the rings after the last step."""
    cache_k, cache_v = leftover_k.copy(), leftover_v.copy()
    outputs = []
    for t in range(Q.shape[2]):
        got = step(Q[:, :, t:t + 1].copy(), K[:, :, t:t + 1].copy(), V[:, :, t:t + 1].copy(), cache_k, cache_v, t)
        if not isinstance(got, (tuple, list)) or len(got) != 3:
            raise StepResult("ring_cache_decode_step must return three things, (out, cache_k, cache_v): the "
                            "output and the two rings with the new token written in, which the next step "
                            f"receives; at step t={t} it returned {type(got).__name__}"
                            + (f" of {len(got)}" if isinstance(got, (tuple, list)) else ""))
        if t == 0:
            kinds = [type(x) for x in got]  # what the step returns, judged at the end by the type rule
        out, cache_k, cache_v = (np.asarray(x) for x in got)  # (the next step gets arrays whatever came back)
        outputs.append(out)
    result = (np.concatenate(outputs, axis=2), cache_k, cache_v)
    return tuple(_as_returned(x, kind) for x, kind in zip(result, kinds))


def _as_returned(x: np.ndarray, kind: type):
    """``x`` in the type the learner's step returned (a list, a torch tensor), for the type rule."""
    if kind is list or kind is tuple:
        return x.tolist()
    if getattr(kind, "__module__", "").startswith("torch"):
        import torch

        return torch.from_numpy(np.ascontiguousarray(x))
    return x


def _attend(q, K, V, visible, groups):
    """Grouped-query attention of one query row over the ring's slots, ``visible (W,)``."""
    Hq, Hkv = q.shape[1], K.shape[1]
    heads = np.arange(Hq) // (Hq // Hkv) if groups == "neighbours" else np.arange(Hq) % Hkv
    scores = q @ K[:, heads].swapaxes(-1, -2) / np.sqrt(q.shape[-1])  # (B, Hq, 1, W)
    scores = np.where(visible, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores - top)
    return (weights / weights.sum(axis=-1, keepdims=True)) @ V[:, heads]  # (B, Hq, 1, Dv)


def _step_variant(q, k, v, cache_k, cache_v, t, *, pos="t", empty="masked", write="before", ring="mod",
                  store="rotated", rotate_v=False, groups="neighbours", keep="new", rotate_q=True,
                  turn=1, interleaved=False, batch0=False, base=10000.0):
    """One step with its known slips as flags (the defaults are the right step)."""
    W = cache_k.shape[2]
    p = np.array([{"slot": t % W, "from 1": t + 1}.get(pos, t)]) * turn  # turn -1: clockwise
    rot = partial(_ref.rope, interleaved=interleaved, base=base)
    q = rot(q, p) if rotate_q else q
    new_k = rot(k, p) if store == "rotated" else k
    new_v = rot(v, p) if rotate_v else v
    old_k, old_v = cache_k, cache_v
    cache_k, cache_v = cache_k.copy(), cache_v.copy()
    if ring == "shift":  # a queue: every entry moves one slot down, the new token goes last
        cache_k, cache_v = np.roll(cache_k, -1, axis=2), np.roll(cache_v, -1, axis=2)
        slot, held = W - 1, np.arange(W) >= W - 1 - t
    else:
        slot, held = t % W, np.arange(W) <= t
    if empty == "attended":
        held = np.ones(W, bool)
    elif empty == "counted_before_write":
        held = np.arange(W) < t
    elif empty == "up_to_slot":  # slots 0..t % W: right until the ring wraps
        held = np.arange(W) <= t % W
    elif empty == "oldest_dropped":  # a window of W - 1: the oldest slot masked once the ring is full
        held = (np.arange(W) <= t) & ~((np.arange(W) == (t + 1) % W) & (t >= W - 1))
    if write == "after":  # the old ring is read, then the new token written
        out = _attend(q, cache_k, cache_v, np.arange(W) < t, groups)
    cache_k[:, :, slot], cache_v[:, :, slot] = new_k[:, :, 0], new_v[:, :, 0]
    if write != "after":
        out = _attend(q, cache_k, cache_v, held, groups)
    if batch0:  # only the first sequence of the batch decoded and written
        cache_k, cache_v = np.concatenate([cache_k[:1], old_k[1:]]), np.concatenate([cache_v[:1], old_v[1:]])
        out = out[:1]
    if keep == "old":
        return out, old_k, old_v
    return out, cache_k, cache_v


def _run_variant(Q, K, V, leftover_k, leftover_v, **flags):
    return run_steps(partial(_step_variant, **flags), Q, K, V, leftover_k, leftover_v)


def reference(Q, K, V, leftover_k, leftover_v):
    """The rings and outputs of the library's step, decoded the way the check decodes."""
    return run_steps(_ref.ring_cache_decode_step, Q, K, V, leftover_k, leftover_v)


_RIGHT = '''
def ring_cache_decode_step(q, k, v, cache_k, cache_v, t):
    W = cache_k.shape[2]
    where = np.array([t])
    q = attnlab.rope(q, where)
    cache_k, cache_v = cache_k.copy(), cache_v.copy()
    cache_k[:, :, t % W] = attnlab.rope(k, where)[:, :, 0]
    cache_v[:, :, t % W] = v[:, :, 0]
    held = np.arange(W) <= t
    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])
    return out, cache_k, cache_v
'''


def _code(*swaps: tuple[str, str]) -> str:
    return swapped(_RIGHT, *swaps)


CARD = Card(
    "ring_cache_decode_step", "11_modern_attention",
    summary="one decoding step with RoPE, grouped-query attention and a window kept in a ring of W slots: "
            "the token at position p in slot p % W, its key rotated at p; slots that hold no token of "
            "this sequence are never attended",
    contract=Contract(
        args=("q", "k", "v", "cache_k", "cache_v", "t"), reference=reference, invoke=run_steps,
        outputs=("step outputs (out of every step, stacked on axis 2)", "cache_k after the last step",
                 "cache_v after the last step"),
        shapes="q (B, Hq, 1, Dh), k (B, Hkv, 1, Dh), v (B, Hkv, 1, Dv): the token at position t, not yet "
               "rotated; cache_k (B, Hkv, W, Dh), cache_v (B, Hkv, W, Dv): the ring, slot p % W holding "
               "position p for the min(t, W) positions before t, any other slot leftovers",
        returns="(out (B, Hq, 1, Dv), cache_k, cache_v): the new token written into slot t % W (its key "
                "rotated at t), and its output over positions max(0, t - W + 1)..t, equal to row t of "
                "grouped_query_attention over the whole sequence with sliding_window_mask(L, L, W)"),
    mistakes=[
        Mistake(
            "rotated by the cache slot t % W instead of the position t",
            principle="RoPE encodes where the token is in the sequence, not where it is stored: the query and "
                      "the key of the token at position t are both rotated by t. With slot numbers the "
                      "offsets are right until the ring wraps, and after it only at the steps that write the "
                      "last slot: at the others the new query sees an older key as if it came later than "
                      "itself.",
            fix="rotate with `np.array([t])`, not `np.array([t % W])`.",
            fails=_FAILS, impl=partial(_run_variant, pos="slot"),
            code=_code(("where = np.array([t])", "where = np.array([t % W])"))),
        Mistake(
            "the slots that hold no token yet are attended (their leftovers from an earlier sequence)",
            principle="Before the ring is full, only slots 0..t hold tokens of this sequence; the others hold "
                      "whatever the buffer held before (zeros at best, an earlier request's keys at worst) and "
                      "must be masked out.",
            fix="attend only where `np.arange(W) <= t` (every slot once t >= W - 1).",
            fails=_FAILS, impl=partial(_run_variant, empty="attended"),
            code=_code(("held = np.arange(W) <= t", "held = np.ones(W, dtype=bool)"))),
        Mistake(
            "the new token's own slot masked out before the ring is full (slots below t counted, not up to t)",
            principle="The new token is written before it attends and sees itself: after writing, slots "
                      "0..t hold tokens, t + 1 of them.",
            fix="`held = np.arange(W) <= t`, not `< t`.",
            fails=_FAILS, impl=partial(_run_variant, empty="counted_before_write"),
            code=_code(("held = np.arange(W) <= t", "held = np.arange(W) < t"))),
        Mistake(
            "the ring read before the new token is written: the token does not see itself, and once the "
            "ring is full it sees the token W positions back, which the window has dropped",
            principle="The window of the token at t is t - W + 1..t: write its key and value into slot t % W "
                      "(over the token at t - W) first, then attend.",
            fix="write `cache_k[:, :, t % W]` and `cache_v[:, :, t % W]` before calling the attention.",
            fails=_FAILS, impl=partial(_run_variant, write="after"),
            code=_code(("    held = np.arange(W) <= t\n    out, _ = attnlab.grouped_query_attention"
                        "(q, cache_k, cache_v, held[None, None, None, :])\n", ""),
                       ("    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n",
                        "    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n"
                        "    held = np.arange(W) < t\n"
                        "    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])\n"))),
        Mistake(
            "a queue instead of a ring: every entry moved one slot down and the new token written into the "
            "last slot, so position p is not in slot p % W",
            principle="In a ring nothing moves: the new token overwrites the oldest, in slot t % W. Attention "
                      "does not care about the slots' order (the positions are in the rotated keys), so the "
                      "outputs can be right while the ring is not the layout the next step (or a kernel "
                      "reading it) expects.",
            fix="write into slot `t % W` and leave the other slots where they are (no `np.roll`).",
            fails=_FAILS, impl=partial(_run_variant, ring="shift"),
            code=_code(("    cache_k[:, :, t % W] = attnlab.rope(k, where)[:, :, 0]\n"
                        "    cache_v[:, :, t % W] = v[:, :, 0]\n    held = np.arange(W) <= t\n",
                        "    cache_k, cache_v = np.roll(cache_k, -1, axis=2), np.roll(cache_v, -1, axis=2)\n"
                        "    cache_k[:, :, -1] = attnlab.rope(k, where)[:, :, 0]\n"
                        "    cache_v[:, :, -1] = v[:, :, 0]\n    held = np.arange(W) >= W - 1 - t\n"))),
        Mistake(
            "the key stored before rotation: the ring holds raw keys, so the scores lose the positions",
            principle="The ring stores each key rotated at its own position, once, when it is computed; a raw "
                      "key in the ring meets the rotated query at the wrong angle.",
            fix="store `attnlab.rope(k, np.array([t]))`, not `k`.",
            fails=_FAILS, impl=partial(_run_variant, store="raw"),
            code=_code(("cache_k[:, :, t % W] = attnlab.rope(k, where)[:, :, 0]", "cache_k[:, :, t % W] = k[:, :, 0]"))),
        Mistake(
            "the values rotated too",
            principle="RoPE turns queries and keys, whose dot product it makes depend on the offset; the "
                      "values are averaged as they are.",
            fix="store `v[:, :, 0]` unrotated.",
            fails=_FAILS, impl=partial(_run_variant, rotate_v=True),
            code=_code(("cache_v[:, :, t % W] = v[:, :, 0]", "cache_v[:, :, t % W] = attnlab.rope(v, where)[:, :, 0]"))),
        Mistake(
            "query head h reads key/value head h % Hkv (the groups taken in turn, not as runs of neighbours)",
            principle="The groups of grouped-query attention are runs of n_rep = Hq / Hkv neighbouring query "
                      "heads, so the group of head h (and the cached head it uses) is h // n_rep.",
            fix="let `grouped_query_attention` pair the heads, or index the ring with `np.arange(Hq) // n_rep`.",
            fails=_FAILS, impl=partial(_run_variant, groups="tiled"),
            code=_code(("    out, _ = attnlab.grouped_query_attention(q, cache_k, cache_v, held[None, None, None, :])\n",
                        "    heads = np.arange(q.shape[1]) % cache_k.shape[1]\n"
                        "    out, _ = attnlab.scaled_dot_product_attention(q, cache_k[:, heads], cache_v[:, heads], "
                        "held[None, None, None, :])\n"))),
        Mistake(
            "the query not rotated (only the keys turned)",
            principle="A score sees the offset between two turns: the query's and the key's. The key alone "
                      "turned by its position gives a score that depends on where the key is, not on how far "
                      "it is from the query.",
            fix="turn the query too: `q = attnlab.rope(q, np.array([t]))`.",
            fails=_FAILS, impl=partial(_run_variant, rotate_q=False),
            code=_code(("    q = attnlab.rope(q, where)\n", ""))),
        Mistake(
            "turned the other way (clockwise, by -t): not the rotation of `rope`, nor the one the ring's other "
            "keys were stored with",
            principle="The ring holds keys turned counter-clockwise by their positions, as `rope` turns them; a "
                      "step that turns by -t stores keys no other step (or kernel) reads the same way, and "
                      "its scores see the offsets reversed.",
            fix="use `attnlab.rope(x, np.array([t]))` for both, not a hand-written rotation by -t.",
            fails=_FAILS, impl=partial(_run_variant, turn=-1),
            code=_code(("    where = np.array([t])\n", "    where = np.array([-t])\n"))),
        Mistake(
            "the interleaved pairing (2k, 2k + 1) instead of the halves (k, k + Dh/2)",
            principle="The keys in the ring and the whole-sequence recomputation use `rope`'s default, the "
                      "halves pairing: a step must turn the same pairs.",
            fix="call `attnlab.rope(x, where)` without `interleaved=True`.",
            fails=_FAILS, impl=partial(_run_variant, interleaved=True),
            code=_code(("attnlab.rope(q, where)", "attnlab.rope(q, where, interleaved=True)"),
                       ("attnlab.rope(k, where)", "attnlab.rope(k, where, interleaved=True)"))),
        Mistake(
            "RoPE's frequencies wrong: pair k turned by base^(-k/Dh) per position instead of base^(-2k/Dh)",
            principle="Pair k of a width-Dh vector turns by base^(-2k/Dh) radians per position (pair 0 by 1, a "
                      "pair Dh/2 would turn by 1/base), as `rope` and the keys in the ring turn it.",
            fix="use `attnlab.rope` (or exponents `-2k/Dh` for k = 0..Dh/2 - 1).",
            fails=_FAILS, impl=partial(_run_variant, base=100.0),
            code=_code(("attnlab.rope(q, where)", "attnlab.rope(q, where, base=100.0)"),
                       ("attnlab.rope(k, where)", "attnlab.rope(k, where, base=100.0)"))),
        Mistake(
            "positions counted from 1: the token at t turned by t + 1",
            principle="The scores only see offsets, so the outputs survive a common shift; but the ring must "
                      "hold each key turned by its own position p (a step of another decoder, or the prefill "
                      "that wrote the first keys, turns by p), and it holds them turned by p + 1.",
            fix="the first token is at position 0: turn by `t`.",
            fails=_FAILS, impl=partial(_run_variant, pos="from 1"),
            code=_code(("    where = np.array([t])\n", "    where = np.array([t + 1])\n"))),
        Mistake(
            "only the slots up to t % W attended: right until the ring wraps, then the newer tokens in the "
            "higher slots are left out",
            principle="Once the ring has wrapped every slot holds a token of the window, whichever slot the new "
                      "one went to: slots after t % W hold the older tokens of the window, not leftovers.",
            fix="attend where `np.arange(W) <= t` (every slot once t >= W - 1), not `<= t % W`.",
            fails=_FAILS, impl=partial(_run_variant, empty="up_to_slot"),
            code=_code(("held = np.arange(W) <= t", "held = np.arange(W) <= t % W"))),
        Mistake(
            "a window one token short: the oldest token of the window masked once the ring is full",
            principle="The window of W holds the new token and the W - 1 before it: all W slots once the ring "
                      "is full. The slot after the new one holds the token W - 1 positions back, still inside.",
            fix="once t >= W - 1 attend to every slot.",
            fails=_FAILS, impl=partial(_run_variant, empty="oldest_dropped"),
            code=_code(("    held = np.arange(W) <= t\n",
                        "    held = np.arange(W) <= t\n    if t >= W - 1:\n        held[(t + 1) % W] = False\n"))),
        Mistake(
            "only the first sequence of the batch decoded (index 0 of axis 0)",
            principle="q, k, v and the rings carry a batch of B sequences on axis 0, each decoded the same "
                      "way: keep the batch axis whole.",
            fix="slice only the slot and token axes (`cache_k[:, :, t % W]`, `k[:, :, 0]`), never `[0]`.",
            fails=_FAILS, impl=partial(_run_variant, batch0=True),
            code=_code(("    return out, cache_k, cache_v\n",
                        "    cache_k[1:], cache_v[1:] = ring_k[1:], ring_v[1:]\n    return out[:1], cache_k, cache_v\n"),
                       ("    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n",
                        "    ring_k, ring_v = cache_k, cache_v\n    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n"))),
        Mistake(
            "the rings returned without the new token (it was written into copies that are not returned)",
            principle="The next step receives the rings this step returns: return the arrays the new key and "
                      "value were written into.",
            fix="`return out, cache_k, cache_v` with the arrays you wrote into.",
            fails=_FAILS, impl=partial(_run_variant, keep="old"),
            code=_code(("    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n",
                        "    ring_k, ring_v = cache_k, cache_v\n    cache_k, cache_v = cache_k.copy(), cache_v.copy()\n"),
                       ("    return out, cache_k, cache_v\n", "    return out, ring_k, ring_v\n"))),
    ],
)


def cases(hidden: bool) -> list[Case]:
    # (B, Hq, Hkv, Dh, Dv, W, L): L > W so that every ring wraps, L % W != 0 so that a queue and a ring
    # end in different layouts, n_rep > 1 with Hkv > 1 so that the two groupings differ
    specs = ([(2, 4, 2, 6, 4, 3, 10), (1, 8, 2, 8, 8, 4, 11), (1, 2, 2, 4, 4, 1, 5)] if hidden else
             [(1, 4, 2, 8, 8, 4, 10), (2, 2, 1, 4, 6, 3, 8), (1, 6, 3, 6, 4, 5, 13)])
    out = []
    for i, (B, Hq, Hkv, Dh, Dv, W, L) in enumerate(specs):
        rng = case_rng(2600 + i, hidden)
        Q, K, V = rng.normal(size=(B, Hq, L, Dh)), rng.normal(size=(B, Hkv, L, Dh)), rng.normal(size=(B, Hkv, L, Dv))
        leftovers = 4.0 * rng.normal(size=(B, Hkv, W, Dh)), 4.0 * rng.normal(size=(B, Hkv, W, Dv))
        out.append(Case((Q, K, V, *leftovers),
                        why=f"q, k, v of {L} tokens, handed over one step t at a time; a ring of W={W} slots (it wraps "
                            f"at t={W}), Hq={Hq}, Hkv={Hkv}, an earlier sequence's leftovers in the slots not "
                            "yet written"))
    return out


_DECODED = ("q", "k", "v", "cache_k", "cache_v")  # q, k, v: all L steps at once, axis 2 the position


def check_ring_cache_decode_step(ring_cache_decode_step, hidden: bool = False) -> None:
    """Check ``ring_cache_decode_step(q, k, v, cache_k, cache_v, t)`` by decoding whole sequences."""
    CARD.check(ring_cache_decode_step, cases(hidden), hidden=hidden, arg_names=_DECODED,
               passed="every step equals recomputation with the window, and each token sits in slot p % W")
