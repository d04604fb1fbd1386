"""attention_with_mods (notebook 13): dense attention whose scaled scores pass through a score mod
and whose mask is a mask mod, ``score_mod(score, b, h, q, k)`` and ``mask_mod(b, h, q, k)`` called
once with broadcastable index arrays (the semantics of torch's ``flex_attention``)."""
from __future__ import annotations

import numpy as np

from .. import variants as _ref
from ..checks._contract import invoke_numpy
from ..checks._core import Case, Mistake, case_rng
from ._card import Card, Contract

_PLAIN = ("test_attention_with_mods",)
_MASKED = ("test_attention_with_mods_masked",)
_BOTH = _PLAIN + _MASKED


class _Mod:
    """A mod of the library, named in the checks' messages and picklable (the grader sends the
    cases to its sandbox as a pickle): it keeps its recipe, ``kind`` and ``params``, and builds
    the function from ``attnlab.variants`` when first called."""

    def __init__(self, kind: str, *params) -> None:
        self.kind, self.params = kind, params
        self._fn = None

    def __getstate__(self):
        return {"kind": self.kind, "params": self.params}

    def __setstate__(self, state) -> None:
        self.kind, self.params, self._fn = state["kind"], state["params"], None

    def _build(self):
        if self.kind == "strictly_causal":
            return _strictly_causal
        if self.kind == "causal_mask_mod":
            return _ref.causal_mask_mod
        return getattr(_ref, self.kind)(*self.params)

    def __call__(self, *args):
        if self._fn is None:
            self._fn = self._build()
        return self._fn(*args)

    def __repr__(self) -> str:
        if self.kind == "strictly_causal":
            return "k < q"
        if self.kind == "causal_mask_mod":
            return "causal_mask_mod"
        shown = [f"bias {np.shape(p)}" if isinstance(p, np.ndarray) and p.ndim > 1 else
                 (repr(p.tolist()) if isinstance(p, np.ndarray) else repr(p)) for p in self.params]
        return f"{self.kind}({', '.join(shown)})"


def _strictly_causal(b, h, q, k):
    return k < q


def _cell(scores: str, mask: str, soft: str) -> str:
    """A learner's cell: index arrays, then ``scores``, ``mask`` and ``soft`` (the softmax) steps."""
    return f'''def attention_with_mods(Q, K, V, score_mod=None, mask_mod=None):
    B, H, Lq, Dh = Q.shape
    Lk = K.shape[2]
    b = np.arange(B).reshape(B, 1, 1, 1)
    h = np.arange(H).reshape(1, H, 1, 1)
    q = np.arange(Lq).reshape(1, 1, Lq, 1)
    k = np.arange(Lk).reshape(1, 1, 1, Lk)
{scores}
{mask}
{soft}
    return weights @ V, weights
'''


_SCORES = '''    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)'''
_MASK = '''    allowed = np.ones(scores.shape, dtype=bool)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
    scores = np.where(allowed, scores, -np.inf)'''
_SOFT = '''    top = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(top), top, 0.0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)'''

CARD = Card(
    "attention_with_mods", "13_attention_variants",
    summary="softmax over the allowed keys of score_mod(Q Kᵀ / √Dh, b, h, q, k), mask_mod(b, h, q, k) True = may attend",
    contract=Contract(
        args=("Q", "K", "V", "score_mod", "mask_mod"), reference=_ref.attention_with_mods, invoke=invoke_numpy,
        outputs=("output", "weights"),
        shapes="Q (B, H, Lq, Dh), K (B, H, Lk, Dh), V (B, H, Lk, Dv); score_mod(score, b, h, q, k) and "
               "mask_mod(b, h, q, k) called once with index arrays b (B,1,1,1), h (1,H,1,1), q (1,1,Lq,1), "
               "k (1,1,1,Lk); None: no mod",
        returns="(output (B, H, Lq, Dv), weights (B, H, Lq, Lk)): the score mod acts on the scaled scores, a "
                "masked key gets weight exactly 0, a query with no allowed key zero weights and a zero output"),
    mistakes=[
        Mistake(
            "the mask applied after the softmax (weights zeroed, not renormalised)",
            principle="Masked keys must leave the softmax before it normalises: the allowed weights of each "
                      "query sum to one.",
            fix="set the masked scores to `-np.inf` before the softmax, not the weights to 0 after it.",
            fails=_MASKED, code=_cell(_SCORES, "", '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    if mask_mod is not None:
        weights = weights * np.broadcast_to(mask_mod(b, h, q, k), scores.shape)''')),
        Mistake(
            "the mask applied before the score mod: a score mod such as a soft cap turns a forbidden key's -inf "
            "back into a number, and the key gets weight",
            principle="The mask mod alone decides which keys count, whatever the score mod returns: let the score "
                      "mod act on every score first, then take the forbidden keys out of the softmax.",
            fix="call `score_mod` on the scaled scores first, then `scores = np.where(allowed, scores, -np.inf)`.",
            fails=_MASKED, code=_cell('''    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    allowed = np.ones(scores.shape, dtype=bool)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
    scores = np.where(allowed, scores, -np.inf)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)''', "", _SOFT)),
        Mistake(
            "the score mod applied to the unscaled scores (scaled by √Dh after it)",
            principle="A score mod receives the scores already divided by √Dh (as flex_attention gives them): "
                      "a bias or a cap acts on the scaled scores.",
            fix="divide `Q Kᵀ` by `np.sqrt(Dh)` first, then call `score_mod` on the result.",
            fails=_BOTH, code=_cell('''    scores = Q @ np.swapaxes(K, -1, -2)
    if score_mod is not None:
        scores = score_mod(scores, b, h, q, k)
    scores = scores / np.sqrt(Dh)''', _MASK, _SOFT)),
        Mistake(
            "mask_mod called with q and k swapped",
            principle="A mask mod takes (b, h, q, k): the query's row, then the key's column; swapping them "
                      "transposes the mask (a causal mask becomes anti-causal).",
            fix="call `mask_mod(b, h, q, k)` with the query indices (1, 1, Lq, 1) third and the key indices "
                "(1, 1, 1, Lk) fourth.",
            fails=_MASKED, code=_cell(_SCORES, '''    allowed = np.ones(scores.shape, dtype=bool)
    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, k, q), scores.shape)
    scores = np.where(allowed, scores, -np.inf)''', _SOFT)),
        Mistake(
            "a fully masked row gives NaN (-inf minus -inf)",
            principle="A query with no allowed key gets all-zero weights and a zero output, not 0 / 0.",
            fix="shift by the row's maximum only where it is finite, and divide only where the sum is positive "
                "(`np.where(total > 0, total, 1.0)`).",
            fails=_MASKED, code=_cell(_SCORES, _MASK, '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)''')),
        Mistake(
            "the mask convention flipped (True read as blocked)",
            principle="A mask mod returns True where the query MAY attend to the key: keep those scores and exclude "
                      "the others, not the reverse.",
            fix="`scores = np.where(allowed, scores, -np.inf)`: the scores stay where the mask is True.",
            fails=_MASKED, code=_cell(_SCORES, '''    if mask_mod is not None:
        blocked = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
        scores = np.where(blocked, -np.inf, scores)''', _SOFT)),
        Mistake(
            "the mask read as True = blocked, with a plain softmax: a query allowed every key gets NaN",
            principle="A mask mod returns True where the query MAY attend to the key: keep those scores and exclude "
                      "the others. Read the other way, a query allowed every key loses them all, and its softmax "
                      "computes 0 / 0.",
            fix="`scores = np.where(allowed, scores, -np.inf)`, and a softmax that gives a row with no allowed key "
                "zero weights (`np.where(total > 0, total, 1.0)`).",
            fails=_MASKED, code=_cell(_SCORES, '''    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
        scores = np.where(~allowed, scores, -np.inf)''', '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)''')),
        Mistake(
            "a fully masked row gets uniform weights (-1e9 instead of excluding the keys)",
            principle="A large negative score is not an excluded key: when every key of a query is masked, the "
                      "softmax of equal scores spreads the weight evenly. A query with no allowed key gets zero "
                      "weights and a zero output.",
            fix="fill the masked scores with `-np.inf`, shift by the row's maximum only where it is finite, and "
                "divide only where the sum is positive (`np.where(total > 0, total, 1.0)`).",
            fails=_MASKED, code=_cell(_SCORES, '''    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
        scores = np.where(allowed, scores, -1e9)''', '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)''')),
        Mistake(
            "an additive mask (-1e9 added to the blocked scores): a fully masked row gets the softmax of its raw "
            "scores instead of zeros",
            principle="Adding the same large negative number to every score of a query changes nothing after the "
                      "softmax: a query with no allowed key must get zero weights and a zero output.",
            fix="fill the masked scores with `-np.inf` (`np.where(allowed, scores, -np.inf)`), shift by the row's "
                "maximum only where it is finite, and divide only where the sum is positive.",
            fails=_MASKED, code=_cell(_SCORES, '''    if mask_mod is not None:
        allowed = np.broadcast_to(mask_mod(b, h, q, k), scores.shape)
        scores = scores + np.where(allowed, 0.0, -1e9)''', '''    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)''')),
        Mistake(
            "the score mod ignored",
            principle="The score mod replaces every score before the softmax: call it and keep what it returns.",
            fix="`scores = score_mod(scores, b, h, q, k)` when a score mod is given.",
            fails=_BOTH, code=_cell('''    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)''', _MASK, _SOFT)),
    ],
)


def _qkv(rng, B, H, Lq, Lk, Dh, Dv):
    return (rng.normal(size=(B, H, Lq, Dh)), rng.normal(size=(B, H, Lk, Dh)), rng.normal(size=(B, H, Lk, Dv)))


def cases(hidden: bool) -> list[Case]:
    rng = case_rng(1301, hidden)
    if hidden:
        specs = [((1, 2, 5, 7, 3, 2), None, ""), ((2, 3, 4, 4, 2, 5), "alibi", ""), ((1, 1, 6, 3, 4, 3), "softcap", ""),
                 ((2, 2, 3, 5, 5, 2), "bias", "")]
    else:
        specs = [((2, 2, 3, 6, 4, 5), None, ""), ((1, 4, 5, 5, 3, 2), "alibi", ""), ((2, 3, 4, 7, 2, 3), "softcap", ""),
                 ((1, 2, 6, 4, 5, 4), "bias", "")]
    out = []
    for (B, H, Lq, Lk, Dh, Dv), mod, _ in specs:
        Q, K, V = _qkv(rng, B, H, Lq, Lk, Dh, Dv)
        if mod is None:
            out.append(Case((Q, K, V), why=f"no mods (B={B}, H={H}, Lq={Lq}, Lk={Lk}): scaled dot-product attention"))
        elif mod == "alibi":
            out.append(Case((Q, K, V, _Mod("alibi_score_mod", H)),
                            why=f"an ALiBi score mod over {H} heads"))
        elif mod == "softcap":
            Q = Q * 3.0  # large scores: the cap bites
            out.append(Case((Q, K, V), {"score_mod": _Mod("softcap_score_mod", 1.5)},
                            why="a soft cap of 1.5 on large scores"))
        else:
            bias = np.round(rng.normal(size=(H, 2 * max(Lq, Lk) - 1)), 2)
            out.append(Case((Q, K, V, _Mod("relative_bias_score_mod", bias)),
                            why=f"a relative-position bias table {bias.shape}"))
    return out


def masked_cases(hidden: bool) -> list[Case]:
    rng = case_rng(1302, hidden)
    out = []
    B, H, L, Dh, Dv = (2, 2, 5, 3, 4) if hidden else (1, 3, 6, 4, 2)
    out.append(Case(_qkv(rng, B, H, L, L, Dh, Dv), {"mask_mod": _Mod("causal_mask_mod")},
                    why=f"a causal mask mod, L={L}"))
    L2, w = (7, 2) if hidden else (8, 3)
    out.append(Case(_qkv(rng, 1, 2, L2, L2, 3, 3),
                    {"score_mod": _Mod("alibi_score_mod", 2),
                     "mask_mod": _Mod("sliding_window_mask_mod", w)},
                    why=f"ALiBi and a sliding window of {w}, L={L2}"))
    docs = np.array([0, 0, 1, 1, 1, 2, 2] if hidden else [0, 0, 0, 1, 1, 2, 2, 2, 2])
    out.append(Case(_qkv(rng, 1, 1, len(docs), len(docs), 2, 3),
                    {"mask_mod": _Mod("document_mask_mod", docs)},
                    why="three packed documents, causal inside each"))
    L3 = 4 if hidden else 5
    out.append(Case(_qkv(rng, 2, 1, L3, L3, 3, 2), {"mask_mod": _Mod("strictly_causal")},
                    why="a strictly causal mask mod (k < q): query 0 has no key to attend to"))
    L4 = 5 if hidden else 6
    Q, K, V = _qkv(rng, 1, 2, L4, L4, 4, 3)
    out.append(Case((3.0 * Q, K, V), {"score_mod": _Mod("softcap_score_mod", 1.5),
                                      "mask_mod": _Mod("causal_mask_mod")},
                    why=f"a soft cap of 1.5 and a causal mask mod, L={L4}"))
    return out


def check_attention_with_mods(attention_with_mods, hidden: bool = False) -> None:
    """Check ``attention_with_mods(Q, K, V, score_mod)`` with no mod and with score mods (ALiBi, a soft cap,
    a relative-position bias)."""
    CARD.check(attention_with_mods, cases(hidden), hidden=hidden,
               passed="the score mod acts on the scaled scores, once, before the softmax")


def check_attention_with_mods_masked(attention_with_mods, hidden: bool = False) -> None:
    """Check ``attention_with_mods(Q, K, V, score_mod, mask_mod)`` with mask mods, one leaving a query no key."""
    CARD.check(attention_with_mods, masked_cases(hidden), hidden=hidden,
               passed="a masked key gets weight 0 whatever the score mod made of it; a query with no key gets zero "
                      "weights and a zero output")
