"""attend (notebook 02): the soft dictionary lookup of one query against a key-value store,
``(softmax(K q / √Dk) @ V, softmax(K q / √Dk))``.

The inputs keep the sizes apart (``Dk``, ``Lk`` and ``Dv`` all differ) so that every mistake
gives a different answer from the right one and from the other mistakes.
"""
from __future__ import annotations

import numpy as np

from .. import attention as _ref
from ..checks._contract import INTEGER_FOR_FLOAT, invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract, Example

_PLAIN = ("test_attend",)
_BOTH = ("test_attend", "test_attend_sharp")
_HARD_INT = '''
def attend(q, K, V):
    scores = K @ q / np.sqrt(len(q))
    weights = np.zeros(len(K), dtype=int)
    weights[np.argmax(scores)] = 1          # hard attention: a one-hot of the best key
    return weights @ V, weights
'''

CARD = Card(
    "attend", "02_query_key_value",
    summary="one query against a key-value store: weights softmax(K q / √Dk), output the "
            "weighted average of the values",
    contract=Contract(
        args=("q", "K", "V"), reference=_ref.attend, invoke=invoke_numpy, outputs=("output", "weights"),
        shapes="q (Dk,), K (Lk, Dk) one key per row, V (Lk, Dv) one value per row",
        returns="(output, weights): output (Dv,) = Σ_i weights[i] V[i], weights (Lk,) = "
                "softmax(K q / √Dk), finite even for scores of about 1000"),
    mistakes=[
        Mistake(
            "a matrix product over the wrong axis (e.g. `q @ K` or `V @ weights`)",
            principle="Contract over the shared axis: the query with each key's Dk features, the weights with the Lk rows of V.",
            fix="the scores are `K @ q` (one per key, shape (Lk,)) and the output is `weights @ V` "
                "(shape (Dv,)).",
            fails=_BOTH, code='''
                def attend(q, K, V):
                    scores = q @ K / np.sqrt(len(q))
                    weights = attnlab.softmax(scores)
                    return weights @ V, weights
                '''),
        Mistake(
            "no scaling: softmax(K q) instead of softmax(K q / √Dk)",
            principle='Scores are divided by √Dk, the square root of the query/key width.',
            fix="divide the scores by `np.sqrt(Dk)`, where `Dk = q.shape[-1]`.",
            fails=_PLAIN, code='''
                def attend(q, K, V):
                    weights = attnlab.softmax(K @ q)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by Dk instead of √Dk",
            principle='The scale is the square root of Dk, not Dk itself.',
            fix="divide by the square root of the key width, `np.sqrt(q.shape[-1])`, not by the width.",
            fails=_PLAIN, code='''
                def attend(q, K, V):
                    d_k = len(q)
                    weights = attnlab.softmax(K @ q / d_k)
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by √Dv (the value width) instead of √Dk",
            principle='The scale comes from the width of the dot product, the query/key width Dk, not the value width.',
            fix="the scale comes from the width of the vectors in the dot product, q and the keys: "
                "`np.sqrt(q.shape[-1])`.",
            fails=_PLAIN, code='''
                def attend(q, K, V):
                    weights = attnlab.softmax(K @ q / np.sqrt(V.shape[1]))
                    return weights @ V, weights
                '''),
        Mistake(
            "scaling by √Lk (the number of keys) instead of √Dk",
            principle='The scale comes from the width of the dot product (Dk), not from the number of keys.',
            fix="the scale is the square root of the key *width* Dk = `q.shape[-1]`, not of the number "
                "of keys.",
            fails=_PLAIN, code='''
                def attend(q, K, V):
                    weights = attnlab.softmax(K @ q / np.sqrt(len(K)))
                    return weights @ V, weights
                '''),
        Mistake(
            "the returned pair in the wrong order: (weights, output) instead of (output, weights)",
            principle='The contract returns the output first, then the weights.',
            fix="return the output first: `return weights @ V, weights`.",
            fails=_BOTH, code='''
                def attend(q, K, V):
                    weights = attnlab.softmax(K @ q / np.sqrt(len(q)))
                    return weights, weights @ V
                '''),
        Mistake(
            "averaging the keys instead of the values",
            principle='Keys decide the weights; the weights then average the values.',
            fix="the keys only decide the weights; the output is the weighted average of the values, "
                "`weights @ V`.",
            fails=_BOTH, code='''
                def attend(q, K, V):
                    weights = attnlab.softmax(K @ q / np.sqrt(len(q)))
                    return weights @ K, weights
                '''),
        Mistake(
            "no softmax: the raw scores used as weights",
            principle='Scores must go through a softmax over the keys to become weights.',
            fix="turn the scores into weights on the simplex with `attnlab.softmax(scores)`.",
            fails=_BOTH, code='''
                def attend(q, K, V):
                    weights = K @ q / np.sqrt(q.shape[0])   # the scores are the weights
                    return weights @ V, weights
                '''),
        Mistake(
            "exponentials that are not normalised (no division by their sum)",
            principle='Exponentials must be divided by their sum over the keys.',
            fix="divide by the sum so the weights add up to one, or use `attnlab.softmax`.",
            fails=_BOTH, code='''
                def attend(q, K, V):
                    weights = np.exp(K @ q / np.sqrt(q.shape[0]))
                    return weights @ V, weights
                '''),
        Mistake(
            "a softmax without max subtraction: exp overflows for large scores (inf / inf = NaN)",
            principle='Subtract the maximum score before exponentiating; it cancels in the ratio.',
            fix="use `attnlab.softmax(scores)`, which subtracts the maximum first.",
            fails=("test_attend_sharp",), code='''
                def attend(q, K, V):
                    e = np.exp(K @ q / np.sqrt(len(q)))
                    weights = e / e.sum()
                    return weights @ V, weights
                '''),
        Mistake(
            "a hard lookup (one-hot weights at the best key)",
            principle='Soft lookup: every key gets a softmax weight, not only the best one.',
            fix="this is the *soft* lookup: weights = softmax(scores), not an argmax.",
            fails=_PLAIN, code='''
                def attend(q, K, V):
                    weights = np.zeros(len(K))
                    weights[np.argmax(K @ q)] = 1.0   # the best key takes all the weight
                    return weights @ V, weights
                '''),
    ],
    examples=[
        # an integer one-hot: on the soft cases the hard lookup (and the type), on the sharp ones,
        # where the one-hot is the right weights, the type alone
        Example(_HARD_INT, ("test_attend_sharp",), INTEGER_FOR_FLOAT.name, label="one-hot integer weights"),
        Example(_HARD_INT, _PLAIN, "a hard lookup", label="one-hot integer weights, soft cases"),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(201 if hidden else 31, hidden)
    sizes = [(5, 7, 2), (3, 4, 6), (6, 2, 3)] if hidden else [(4, 6, 3), (3, 5, 2), (8, 3, 5)]
    out = []
    for Dk, Lk, Dv in sizes:  # Dk, Lk and Dv all differ, so a wrong axis shows
        out.append(Case((rng.normal(size=Dk), rng.normal(size=(Lk, Dk)), rng.normal(size=(Lk, Dv))),
                        why="one query against a small key-value store"))
    return out


def sharp_cases(hidden: bool) -> list[Case]:
    rng = case_rng(202 if hidden else 32, hidden)
    out = []
    for Dk, Lk, Dv, best in ([(6, 5, 2, 3), (4, 7, 3, 0)] if hidden else [(4, 6, 3, 2), (5, 4, 2, 1)]):
        K = rng.normal(size=(Lk, Dk))
        K *= 45.0 / np.linalg.norm(K, axis=1, keepdims=True)  # |k_i| = 45
        q = K[best] * (1.0 + rng.random())  # matches key `best` best, scores in the hundreds+
        out.append(Case((q, K, rng.normal(size=(Lk, Dv))),
                        why="one key matches far better than the rest: scores of about 1000"))
    return out


def check_attend(attend, hidden: bool = False) -> None:
    """Check that ``attend(q, K, V)`` returns ``(softmax(K q / √Dk) @ V, softmax(K q / √Dk))``."""
    CARD.check(attend, cases(hidden), hidden=hidden, passed="output and weights match")


def check_attend_sharp(attend, hidden: bool = False) -> None:
    """Check that ``attend`` stays finite and picks the matching value when scores are large."""
    CARD.check(attend, sharp_cases(hidden), hidden=hidden, passed="stable for scores of about 1000")
