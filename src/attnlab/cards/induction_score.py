"""induction_score (notebook 12): how much a head attends to the keys that follow earlier
occurrences of the query's token, found by comparing tokens: the summed weight on those keys,
averaged over the queries that have one."""
from __future__ import annotations

import numpy as np

from .. import learned as _ref
from ..checks._core import Case, Mistake, case_rng
from ..checks.what_attention_learns import softmax_rows
from ._card import Card, Contract, swapped

_FAILS = ("test_induction_score",)

_RIGHT = '''
def induction_score(weights, tokens):
    L = weights.shape[-1]
    tokens = np.broadcast_to(tokens, weights.shape[:-1])
    targets = np.zeros(weights.shape, dtype=bool)
    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]
    targets &= np.tril(np.ones((L, L), dtype=bool))
    counted = targets.any(axis=-1)
    if not counted.any():
        raise ValueError("tokens: no token occurs twice")
    return float((weights * targets).sum(axis=-1)[counted].mean())
'''


def _code(*swaps: tuple[str, str]) -> str:
    return swapped(_RIGHT, *swaps)


CARD = Card(
    "induction_score", "12_what_attention_learns",
    summary="the summed weight a query puts on the keys j <= t whose previous token equals its own, "
            "averaged over the queries that have such a key",
    contract=Contract(
        args=("weights", "tokens"), reference=_ref.induction_score,
        shapes="weights (..., L, L) one head's weights; tokens (..., L) integer ids, broadcastable to the "
               "weights' leading axes and rows (L,) or (B, 1, L) for weights (B, H, L, L)",
        returns="a float: for each query t that has keys j with 1 <= j <= t and tokens[j - 1] == tokens[t], "
                "the summed weight on them; the mean over those queries, each counted query of each matrix "
                "weighing the same",
        raises="ValueError when no query has such a key (no token occurs twice)"),
    mistakes=[
        Mistake(
            "the earlier occurrence itself, not the key after it (a duplicate-token head's score)",
            principle="An induction head does not look at the earlier copy of its token: it looks one step to "
                      "its right, at the token that came next, which it will predict.",
            fix="compare the query's token with the token *before* each key: `tokens[..., None, :-1]` against "
                "keys `1..L-1`.",
            fails=_FAILS, code=_code(("    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]\n"
                                      "    targets &= np.tril(np.ones((L, L), dtype=bool))\n",
                                      "    targets[...] = tokens[..., :, None] == tokens[..., None, :]\n"
                                      "    targets &= np.tril(np.ones((L, L), dtype=bool), k=-1)\n"))),
        Mistake(
            "the queries with no earlier occurrence of their token counted, as zeros",
            principle="A query whose token has not occurred before has nothing to copy: the score averages "
                      "only over the queries that have a target, so that an ideal induction head scores 1.",
            fix="average over the rows where `targets.any(-1)`, not over every row.",
            fails=_FAILS, code=_code(("    return float((weights * targets).sum(axis=-1)[counted].mean())",
                                      "    return float((weights * targets).sum(axis=-1).mean())"))),
        Mistake(
            "only the latest earlier occurrence's next token counted",
            principle="Every earlier occurrence of the token is a match the head may copy from: the score "
                      "sums the weight on the key after each of them.",
            fix="keep every key j <= t whose previous token matches, not only the largest j.",
            fails=_FAILS, code=_code(("    counted = targets.any(axis=-1)\n",
                                      "    last = L - 1 - np.argmax(targets[..., ::-1], axis=-1)\n"
                                      "    targets = targets & (np.arange(L) == last[..., None])\n"
                                      "    counted = targets.any(axis=-1)\n"))),
        Mistake(
            "keys after the query counted (j > t)",
            principle="A key after the query is not an earlier occurrence's successor: the query's token "
                      "must have occurred before it, so its targets are keys j <= t. A causal head gives them "
                      "no weight; a bidirectional one does.",
            fix="keep `1 <= j <= t`: `np.tril` of the target matrix.",
            fails=_FAILS, code=_code(("    targets &= np.tril(np.ones((L, L), dtype=bool))\n", ""))),
        Mistake(
            "a mean over the target keys instead of their sum",
            principle="A head that puts all its weight on the successors of its token's earlier occurrences "
                      "scores 1 however many there are: the weights on them add up.",
            fix="`(weights * targets).sum(-1)` per query, not a mean over the targets.",
            fails=_FAILS, code=_code(("    return float((weights * targets).sum(axis=-1)[counted].mean())",
                                      "    per_query = (weights * targets).sum(axis=-1)[counted] / targets.sum(axis=-1)[counted]\n"
                                      "    return float(per_query.mean())"))),
        Mistake(
            "key t itself left out: a token that repeats at once (tokens[t - 1] == tokens[t]) has its target in "
            "the query's own position",
            principle="Key j is a target when token j - 1 is an earlier occurrence of the query's token, j - 1 < t: "
                      "j may be t itself, when the previous token is the same token.",
            fix="keep keys `1 <= j <= t`: `np.tril(...)` with the diagonal, not `k=-1`.",
            fails=_FAILS, code=_code(("np.tril(np.ones((L, L), dtype=bool))", "np.tril(np.ones((L, L), dtype=bool), k=-1)"))),
        Mistake(
            "key 0 compared with the last token (a roll wraps around): key 0 has no previous token",
            principle="Key 0 follows nothing, so it is never a target; a circular shift puts the sequence's "
                      "last token before it.",
            fix="compare only keys 1..L-1 with tokens 0..L-2 (`tokens[..., None, :-1]` into `targets[..., 1:]`).",
            fails=_FAILS, code=_code(("    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]\n",
                                      "    targets[...] = tokens[..., :, None] == np.roll(tokens, 1, axis=-1)[..., None, :]\n"))),
        Mistake(
            "only the first (earliest) earlier occurrence's next token counted",
            principle="Every earlier occurrence of the token is a match the head may copy from: the score sums "
                      "the weight on the key after each of them, the latest as much as the first.",
            fix="keep every key j <= t whose previous token matches, not only the smallest j.",
            fails=_FAILS, code=_code(("    counted = targets.any(axis=-1)\n",
                                      "    first = np.argmax(targets, axis=-1)\n"
                                      "    targets = targets & (np.arange(L) == first[..., None])\n"
                                      "    counted = targets.any(axis=-1)\n"))),
        Mistake(
            "rows and columns swapped: the table read as [key, query]",
            principle="Row t of the weights is what query t attends to: the targets of query t are in row t, "
                      "at the columns j of the keys.",
            fix="build the table as `[t, j]`: queries along the rows (`tokens[..., :, None]`), keys along the columns.",
            fails=_FAILS, code=_code(("    counted = targets.any(axis=-1)\n",
                                      "    targets = np.swapaxes(targets, -1, -2)\n    counted = targets.any(axis=-1)\n"))),
        Mistake(
            "the causal limit off by one: key t + 1 counted (it always follows the query's own token)",
            principle="Key t + 1 comes after the query: its previous token is the query's own, not an earlier "
                      "occurrence. The targets are keys 1 <= j <= t.",
            fix="`np.tril(..., k=0)` on the table of keys j, not `k=1`.",
            fails=_FAILS, code=_code(("np.tril(np.ones((L, L), dtype=bool))", "np.tril(np.ones((L, L), dtype=bool), k=1)"))),
        Mistake(
            "the queries counted before the causal limit: a query whose token occurs only later counted, as a zero",
            principle="A query counts when its token occurred *before* it; a match with a later key is not an "
                      "occurrence it can copy from. Decide which queries count from the causal table.",
            fix="compute `counted = targets.any(-1)` after `targets &= np.tril(...)`.",
            fails=_FAILS, code=_code(("    targets &= np.tril(np.ones((L, L), dtype=bool))\n    counted = targets.any(axis=-1)\n",
                                      "    counted = targets.any(axis=-1)\n    targets &= np.tril(np.ones((L, L), dtype=bool))\n"))),
        Mistake(
            "the largest weight among the targets instead of their sum",
            principle="A head may split its weight between the keys after several earlier occurrences; all of "
                      "it is induction, so the weights on the targets add up.",
            fix="`(weights * targets).sum(-1)`, not `.max(-1)`.",
            fails=_FAILS, code=_code(("(weights * targets).sum(axis=-1)[counted]", "(weights * targets).max(axis=-1)[counted]"))),
        Mistake(
            "the counted queries taken from the tokens before they are broadcast to the weights' heads",
            principle="Tokens (B, 1, L) stand for every head of their sequence: broadcast them to the weights' "
                      "leading axes (B, H, L) first, so that the table of targets and the counted queries have "
                      "one row per query of every head.",
            fix="`tokens = np.broadcast_to(tokens, weights.shape[:-1])` before building the table.",
            fails=_FAILS, code=_code(("    tokens = np.broadcast_to(tokens, weights.shape[:-1])\n    targets = np.zeros(weights.shape, dtype=bool)\n",
                                      "    targets = np.zeros(tokens.shape + (L,), dtype=bool)\n"))),
        Mistake(
            "the counted queries taken from the tokens before they are broadcast, the weights summed over "
            "every head: H times the right score",
            principle="Tokens (B, 1, L) stand for every head of their sequence: each of a sequence's counted "
                      "queries counts once per head, as its weights do. Count them after broadcasting the tokens "
                      "to the weights' leading axes, or the mean divides a sum over B x H matrices by a count "
                      "over B.",
            fix="`tokens = np.broadcast_to(tokens, weights.shape[:-1])` before counting the queries.",
            fails=_FAILS, code='''
                def induction_score(weights, tokens):
                    L = weights.shape[-1]
                    tokens = np.asarray(tokens)
                    targets = np.zeros(tokens.shape + (L,), dtype=bool)
                    targets[..., 1:] = tokens[..., :, None] == tokens[..., None, :-1]
                    targets &= np.tril(np.ones((L, L), dtype=bool))
                    counted = targets.any(axis=-1)
                    if not counted.any():
                        raise ValueError("tokens: no token occurs twice")
                    return float((weights * targets).sum() / counted.sum())
                '''),
        Mistake(
            "the matrices paired with the sequences in order, without broadcasting: under heads, matrix i is "
            "read with sequence i (and the pairing stops at the shorter list)",
            principle="Tokens (B, 1, L) hold one sequence for all H heads of a batch item: head h of item b reads "
                      "sequence b. Broadcast the tokens to the weights' leading axes; do not flatten both and "
                      "zip them.",
            fix="`np.broadcast_to(tokens, weights.shape[:-1])`, then flatten both the same way.",
            fails=_FAILS, code='''
                def induction_score(weights, tokens):
                    L = weights.shape[-1]
                    sums = []
                    for w, tok in zip(weights.reshape(-1, L, L), np.reshape(tokens, (-1, L))):
                        for t in range(L):
                            keys = [j for j in range(1, t + 1) if tok[j - 1] == tok[t]]
                            if keys:
                                sums.append(sum(w[t, j] for j in keys))
                    if not sums:
                        raise ValueError("tokens: no token occurs twice")
                    return float(np.mean(sums))
                '''),
        Mistake(
            "each matrix's mean taken first, then the mean of those (matrices with few counted queries "
            "weigh as much as the others)",
            principle="Every counted query of every matrix weighs the same: pool them before the mean.",
            fix="index the per-query sums with the boolean `counted` over all axes at once, then `.mean()`.",
            fails=_FAILS, code=_code(("    return float((weights * targets).sum(axis=-1)[counted].mean())",
                                      "    sums = (weights * targets).sum(axis=-1).reshape(-1, L)\n"
                                      "    flags = np.broadcast_to(counted, weights.shape[:-1]).reshape(-1, L)\n"
                                      "    return float(np.mean([s[f].mean() for s, f in zip(sums, flags) if f.any()]))"))),
    ],
)


def _causal(w: np.ndarray) -> np.ndarray:
    L = w.shape[-1]
    w = np.where(np.tril(np.ones((L, L), dtype=bool)), w, 0.0)
    return w / w.sum(axis=-1, keepdims=True)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(1240, hidden)
    out = []
    # (weights shape, tokens shape, vocabulary, causal): small vocabularies repeat tokens several times
    specs = ([((9, 9), (9,), 3, True), ((3, 11, 11), (3, 11), 4, True), ((2, 3, 8, 8), (2, 1, 8), 3, True),
              ((7, 7), (7,), 3, False)] if hidden else
             [((8, 8), (8,), 3, True), ((3, 10, 10), (3, 10), 4, True), ((2, 2, 9, 9), (2, 1, 9), 3, True),
              ((6, 6), (6,), 2, False)])
    for wshape, tshape, V, causal in specs:
        w = softmax_rows(rng, wshape)
        w = _causal(w) if causal else w
        tokens = rng.integers(0, V, size=tshape)
        tokens[..., 2] = tokens[..., 1]  # a token that repeats at once: its target is the query's own key
        if len(tshape) > 1 and tshape[0] > 1:
            tokens[0, ..., :] = np.arange(tshape[-1]) % (tshape[-1] - 2)  # one sequence with few repeats
        why = (f"tokens {tshape} from {V} ids" + (" under every head" if len(tshape) == 3 else "")
               + ("" if causal else ", a bidirectional head (keys after the query weigh too)"))
        out.append(Case((w, tokens), why=why))
    L = 6
    mixed = np.stack([np.arange(L), np.array([1, 0, 1, 2, 0, 1]) + (3 if hidden else 0)])  # (2, L)
    out.append(Case((_causal(softmax_rows(rng, (2, L, L))), mixed),
                    why="sequence 0 has no token twice (its queries simply do not count), sequence 1 has repeats"))
    out.append(Case((_causal(softmax_rows(rng, (L, L))), np.arange(L)), why="no token occurs twice",
                    raises=ValueError))
    out.append(Case((_causal(softmax_rows(rng, (2, L, L))), np.stack([np.arange(L), np.arange(L)[::-1]])),
                    why="two sequences that share their tokens, neither with a token twice", raises=ValueError))
    return out


def check_induction_score(induction_score, hidden: bool = False) -> None:
    """Check ``induction_score(weights, tokens)``."""
    CARD.check(induction_score, cases(hidden), hidden=hidden,
               passed="the summed weight on the keys after earlier occurrences, over the queries that have one")
