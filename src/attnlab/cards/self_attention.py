"""self_attention (notebook 03): single-head self-attention, ``softmax((X W_q)(X W_k)ᵀ / √Dk) (X W_v)``,
for one sequence or a batch."""
from __future__ import annotations

from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ..checks.self_attention import attention_args
from ..self_attention import self_attention as _reference
from ._card import Card, Contract

_BOTH = ("test_self_attention", "test_self_attention_batched")

CARD = Card(
    "self_attention", "03_self_attention",
    summary="queries, keys and values are three linear maps of the same tokens X; "
            "Z = softmax(Q Kᵀ / √Dk) V",
    contract=Contract(
        args=("X", "W_q", "W_k", "W_v"), reference=_reference, invoke=invoke_numpy, outputs=("Z", "A"),
        shapes="X (..., L, D) (one sequence or a batch), W_q and W_k (D, Dk), W_v (D, Dv)",
        returns="(Z, A): Z (..., L, Dv) the outputs, A (..., L, L) the attention weights, each row "
                "summing to one"),
    mistakes=[
        Mistake(
            "`K.T` (or `X.T`) on a batch: it reverses every axis, not just the last two",
            principle="Transpose only the last two axes, so that leading batch axes stay where they are.",
            fix="use `np.swapaxes(K, -1, -2)`, which transposes only the last two axes and keeps the "
                "batch axes in front.",
            fails=("test_self_attention_batched",), code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ K.T / np.sqrt(K.shape[-1]))
                    return A @ V, A
                '''),
        Mistake(
            "transposed weights (`X @ W_q.T`)",
            principle="Weights are (in, out) and multiply on the right of X, as they are.",
            fix="the weights are (in, out) = (D, Dk): multiply as `X @ W_q` (it is `nn.Linear` that "
                "stores them transposed).",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q.T, X @ W_k.T, X @ W_v.T  # the nn.Linear habit
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]))
                    return A @ V, A
                '''),
        Mistake(
            "no scaling: softmax(Q Kᵀ) instead of softmax(Q Kᵀ / √Dk)",
            principle="Scores are divided by √Dk before the softmax.",
            fix="divide the scores by `np.sqrt(Dk)`, with `Dk = W_q.shape[1]`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2))
                    return A @ V, A
                '''),
        Mistake(
            "scaling by √D (the input width) instead of √Dk",
            principle="The scale comes from the query/key width Dk, not the input width D.",
            fix="the scores are dot products of Dk-dimensional queries and keys: divide by "
                "`np.sqrt(W_q.shape[1])`, not by the square root of X's width.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    D = X.shape[-1]
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(D))
                    return A @ V, A
                '''),
        Mistake(
            "scaling by Dk instead of √Dk",
            principle="The scale is the square root of Dk, not Dk itself.",
            fix="divide by the square root: `np.sqrt(W_q.shape[1])`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / K.shape[-1])
                    return A @ V, A
                '''),
        Mistake(
            "scaling by √Dv (the value width) instead of √Dk",
            principle="The scale comes from the width of the dot product, the query/key width Dk, not the "
                      "value width.",
            fix="the scale belongs to the query-key dot product: `np.sqrt(W_q.shape[1])`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1]))
                    return A @ V, A
                '''),
        Mistake(
            "a softmax over the wrong axis (over the queries, axis -2)",
            principle="Each query's weights over the keys sum to one: normalise over the last axis.",
            fix="row i of A holds token i's weights over all tokens: softmax over the last axis.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]), axis=-2)
                    return A @ V, A
                '''),
        Mistake(
            "a softmax over the wrong axis (axis=0, which is the batch axis for a batch)",
            principle="Normalise over the keys, the last axis, whatever the leading dimensions.",
            fix="row i of A holds token i's weights over all tokens: `attnlab.softmax(scores, axis=-1)`.",
            fails=("test_self_attention_batched",), code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]), axis=0)
                    return A @ V, A
                '''),
        Mistake(
            "no softmax: the scaled scores used as weights",
            principle="Scaled scores go through a softmax over the keys to become weights.",
            fix="A = `attnlab.softmax(scores, axis=-1)`: the weights must be on the simplex.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
                    return A @ V, A
                '''),
        Mistake(
            "X used as the values (no W_v)",
            principle="Values are their own projection of X.",
            fix="the values are a learned map of X too: `V = X @ W_v`, then `Z = A @ V`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K = X @ W_q, X @ W_k
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
                    return A @ X, A
                '''),
        Mistake(
            "W_q used for the keys as well (Q Qᵀ)",
            principle="Keys have their own projection, distinct from the queries'.",
            fix="keys come from their own projection: `K = X @ W_k`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_q, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
                    return A @ V, A
                '''),
        Mistake(
            "W_q and W_k swapped (queries from W_k, keys from W_q)",
            principle="Queries come from W_q, keys from W_k.",
            fix="`Q = X @ W_q` and `K = X @ W_k`; swapping them transposes the scores.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_k, X @ W_q, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
                    return A @ V, A
                '''),
        Mistake(
            "returning (A, Z) instead of (Z, A)",
            principle="The contract returns the output Z first, then the weights A.",
            fix="return the outputs first: `return A @ V, A`.",
            fails=_BOTH, code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
                    return A, A @ V
                '''),
        Mistake(
            "a softmax without the max subtraction: exp overflows for large scores (inf / inf = NaN)",
            principle="Shift each row of scores by its maximum before exponentiating; the shift cancels "
                      "in the ratio and keeps exp below overflow.",
            fix="use a stable softmax (`attnlab.softmax`, or subtract each row's maximum before `np.exp`).",
            fails=("test_self_attention",), code='''
                def self_attention(X, W_q, W_k, W_v):
                    Q, K, V = X @ W_q, X @ W_k, X @ W_v
                    e = np.exp(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
                    A = e / e.sum(axis=-1, keepdims=True)
                    return A @ V, A
                '''),
    ],
)


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(301 if hidden else 71, hidden)
    sizes = [(5, 3, 4, 2), (3, 7, 2, 5), (6, 4, 5, 3)] if hidden else [(4, 6, 3, 5), (5, 3, 4, 2), (3, 8, 2, 3)]
    out = [Case(attention_args(rng, (), *s), why="one sequence; L, D, Dk and Dv all differ") for s in sizes]
    X, W_q, W_k, W_v = attention_args(rng, (), *((5, 3, 4, 2) if hidden else (4, 5, 3, 2)))
    out.append(Case((X, W_q * 3000.0, W_k, W_v), why="large queries: scores of about 1e3 to 1e4"))
    return out


def batched_cases(hidden: bool) -> list[Case]:
    rng = case_rng(302 if hidden else 72, hidden)
    shapes = [((3,), 5, 3, 4, 2), ((2, 3), 4, 5, 2, 3)] if hidden else [((2,), 4, 6, 3, 5), ((3, 2), 3, 4, 5, 2)]
    return [Case(attention_args(rng, b, *s), why="a batch of sequences (..., L, D)") for b, *s in shapes]


def check_self_attention(self_attention, hidden: bool = False) -> None:
    """Check ``self_attention(X, W_q, W_k, W_v)`` on one sequence ``(L, D)``."""
    CARD.check(self_attention, cases(hidden), hidden=hidden, passed="Z and A match on one sequence")


def check_self_attention_batched(self_attention, hidden: bool = False) -> None:
    """Check ``self_attention`` on a batch ``(..., L, D)``."""
    CARD.check(self_attention, batched_cases(hidden), hidden=hidden, passed="works on batches")
