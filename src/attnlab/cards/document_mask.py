"""document_mask (notebook 13): the boolean ``(L, L)`` mask of packed sequences, query ``q`` seeing key
``k`` when both tokens belong to the same document and ``k <= q`` (causal inside each document)."""
from __future__ import annotations

import numpy as np

from .. import variants as _variants
from ..checks._core import Case, Mistake
from ..checks.masks_and_cross_attention import invoke_mask
from ._card import Card, Contract


def reference(doc_ids):
    """The explicit mask of ``variants.document_mask_mod(doc_ids)``: ``(L, L)`` bool, True = may attend."""
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    return _variants.mask_from_mod(_variants.document_mask_mod(doc_ids), 1, 1, L, L)[0, 0]  # (L, L)


_FAILS = ("test_document_mask",)


def _cell(body: str) -> str:
    return f'''def document_mask(doc_ids):
    doc_ids = np.asarray(doc_ids)
    L = len(doc_ids)
    q = np.arange(L)[:, None]
    k = np.arange(L)[None, :]
{body}
'''


CARD = Card(
    "document_mask", "13_attention_variants",
    summary="packed documents: query q sees key k when doc_ids[q] == doc_ids[k] and k <= q",
    contract=Contract(
        args=("doc_ids",), reference=reference, invoke=invoke_mask,
        shapes="doc_ids (L,) integers, the document of each token of a packed sequence (each document's tokens "
               "consecutive)",
        returns="a boolean array (L, L), True where doc_ids[q] == doc_ids[k] and k <= q"),
    mistakes=[
        Mistake(
            "document boundaries shifted by one: each document's first token sees the end of the previous one",
            principle="A token belongs to the document its own id names: compare the ids of the query and of the "
                      "key themselves, not of their neighbours.",
            fix="`same = doc_ids[:, None] == doc_ids[None, :]`, with no shift of the ids.",
            fails=_FAILS, code=_cell('''    shifted = np.append(doc_ids[1:], doc_ids[-1])
    return (shifted[:, None] == shifted[None, :]) & (k <= q)''')),
        Mistake(
            "not causal inside a document (every token of the document visible)",
            principle="Packed training of a decoder stays causal: inside its document a token sees only itself "
                      "and the tokens before it.",
            fix="combine the same-document test with `k <= q` using `&`.",
            fails=_FAILS, code=_cell('''    return doc_ids[:, None] == doc_ids[None, :]''')),
        Mistake(
            "the opposite convention, True = blocked",
            principle="The course's convention: True means \"may attend\".",
            fix="return True where the query may attend (same document, k <= q); do not negate the mask.",
            fails=_FAILS, code=_cell('''    return ~((doc_ids[:, None] == doc_ids[None, :]) & (k <= q))''')),
        Mistake(
            "the documents ignored (a plain causal mask)",
            principle="A packed sequence holds several documents: a token must not see the documents before its own.",
            fix="also require `doc_ids[q] == doc_ids[k]`.",
            fails=_FAILS, code=_cell('''    return k <= q''')),
        Mistake(
            "ids assumed to increase along the sequence (document starts found by counting the ids)",
            principle="The ids are any integers, in any order (they may decrease or be negative): only each "
                      "document's tokens are consecutive. Compare the ids of the query and of the key, do not "
                      "count them from 0 upwards.",
            fix="`same = doc_ids[:, None] == doc_ids[None, :]`, then `same & (k <= q)`: no bincount, no cumsum.",
            fails=_FAILS, code=_cell('''    counts = np.bincount(doc_ids)
    starts = np.cumsum(counts) - counts
    start = starts[doc_ids]
    return (k >= start[:, None]) & (k <= q)''')),
        Mistake(
            "ids assumed sorted (document starts found with np.searchsorted)",
            principle="A binary search needs sorted values, and the ids come in any order (they may decrease or "
                      "be negative): compare the ids of the query and of the key instead of searching for them.",
            fix="`same = doc_ids[:, None] == doc_ids[None, :]`, then `same & (k <= q)`.",
            fails=_FAILS, code=_cell('''    start = np.searchsorted(doc_ids, doc_ids, side="left")
    return (k >= start[:, None]) & (k <= q)''')),
    ],
)


def cases(hidden: bool) -> list[Case]:
    # ids in any order, negative ones too: only each document's tokens are consecutive
    docs = ([[0, 0, 1, 1, 1, 1, 2], [4, 4, 4, 9, 9], [2, 2, 2, 1], [7, 7, 3, 3, 3, 8], [2, 5, 5, 5, 5, 5, 5, 7],
             [0, 0, 0], [-1, -1, -1, 3, 3, -5]] if hidden else
            [[0, 0, 0, 1, 1, 2, 2, 2, 2], [3, 3, 7, 7, 7, 8], [1, 1, 0, 0, 0], [5, 5, 2, 9, 9, 9], [1, 2, 2, 2],
             [6, 6, 6, 6, 6, 6], [-3, -3, 4, 4]])
    out = []
    for d in docs:
        n = len(set(d))
        order = ", negative ids" if min(d) < 0 else ", ids not increasing" if d != sorted(d) else ""
        out.append(Case((np.array(d),), why=f"doc_ids={d}: {n} document" + ("s" if n > 1 else " (a causal mask)")
                        + order))
    return out


def check_document_mask(document_mask, hidden: bool = False) -> None:
    """Check ``document_mask(doc_ids)`` on packed sequences of one to three documents."""
    CARD.check(document_mask, cases(hidden), hidden=hidden,
               passed="each token sees its own document's earlier tokens and itself, nothing else")
