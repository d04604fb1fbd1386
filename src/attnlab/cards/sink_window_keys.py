"""sink_window_keys (notebook 13): the sorted indices a StreamingLLM cache keeps, the first ``n_sinks``
tokens and the last ``window``, each once."""
from __future__ import annotations

from .. import variants as _ref
from ..checks._core import Case, Mistake
from ._card import Card, Contract

_BOTH = ("test_sink_window_keys", "test_sink_window_keys_short")
_PLAIN = ("test_sink_window_keys",)
_SHORT = ("test_sink_window_keys_short",)

CARD = Card(
    "sink_window_keys", "13_attention_variants",
    summary="the first n_sinks tokens and the last window tokens, sorted, each once",
    contract=Contract(
        args=("Lk", "n_sinks", "window"), reference=_ref.sink_window_keys,
        shapes="Lk >= 0 tokens in the cache so far, n_sinks >= 0, window >= 1",
        returns="an integer array of the kept key indices, sorted, each once: min(Lk, n_sinks + window) of them"),
    mistakes=[
        Mistake(
            "the sinks counted inside the window (n_sinks + window - n_sinks keys)",
            principle="The sinks come on top of the window: the cache keeps the n_sinks first tokens and, besides "
                      "them, the window last ones.",
            fix="keep `range(Lk - window, Lk)` for the window, whatever n_sinks is.",
            fails=_BOTH, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    recent = range(max(0, Lk - (window - n_sinks)), Lk)
                    return np.array(sorted(set(range(min(n_sinks, Lk))) | set(recent)), dtype=int)
                '''),
        Mistake(
            "a key kept twice in a short cache (the two ranges concatenated)",
            principle="Every key is kept once, even in a short cache whose first tokens are also its newest.",
            fix="take the union of the two sets of indices (or a boolean keep array), not their concatenation.",
            fails=_SHORT, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    return np.concatenate([np.arange(min(n_sinks, Lk)), np.arange(max(0, Lk - window), Lk)])
                '''),
        Mistake(
            "the two ranges concatenated as they are: keys kept twice, and indices outside the cache",
            principle="Every key is kept once, and only keys of the cache, 0 to Lk - 1: in a short cache the "
                      "two ranges share keys, the window would start below 0 and the sinks may run past "
                      "the last token.",
            fix="clip both ranges (`range(min(n_sinks, Lk))`, `range(max(0, Lk - window), Lk)`) and take their "
                "union (`np.union1d`), not their concatenation.",
            fails=_SHORT, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    return np.concatenate([np.arange(n_sinks), np.arange(Lk - window, Lk)])
                '''),
        Mistake(
            "a window off by one (window + 1 recent keys)",
            principle="A window of w keeps exactly the w newest tokens, the newest one included.",
            fix="the window starts at `Lk - window`, not `Lk - window - 1`.",
            fails=_PLAIN, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    recent = range(max(0, Lk - window - 1), Lk)
                    return np.array(sorted(set(range(min(n_sinks, Lk))) | set(recent)), dtype=int)
                '''),
        Mistake(
            "the newest token left out of the window",
            principle="The window ends with the newest token, index Lk - 1.",
            fix="the window is `range(Lk - window, Lk)`: Python's range stops before its end, Lk.",
            fails=_BOTH, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    recent = range(max(0, Lk - window - 1), Lk - 1)
                    return np.array(sorted(set(range(min(n_sinks, Lk))) | set(recent)), dtype=int)
                '''),
        Mistake(
            "a boolean keep-mask of length Lk returned instead of the indices",
            principle="The function returns the indices of the kept keys (integers, sorted), not a True/False "
                      "flag for every key of the cache.",
            fix="build the boolean `keep` array if you like, then return `np.flatnonzero(keep)`.",
            fails=_BOTH, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    keep = np.zeros(Lk, dtype=bool)
                    keep[:n_sinks] = True
                    keep[max(0, Lk - window):] = True
                    return keep
                '''),
        Mistake(
            "the window's start not clipped at 0: negative indices",
            principle="In a cache shorter than the window, the window starts at the first token, index 0: "
                      "Lk - window is then negative and no key has a negative index.",
            fix="start the window at `max(0, Lk - window)`.",
            fails=_SHORT, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    recent = range(Lk - window, Lk)
                    return np.array(sorted(set(range(min(n_sinks, Lk))) | set(recent)), dtype=int)
                '''),
        Mistake(
            "the sinks not clipped at Lk: an index beyond the cache",
            principle="A cache of Lk tokens has keys 0 to Lk - 1 only: when it holds fewer tokens than n_sinks, "
                      "every token is a sink, and there is no key Lk or beyond.",
            fix="keep `range(min(n_sinks, Lk))` for the sinks.",
            fails=_SHORT, code='''
                def sink_window_keys(Lk, n_sinks, window):
                    recent = range(max(0, Lk - window), Lk)
                    return np.array(sorted(set(range(n_sinks)) | set(recent)), dtype=int)
                '''),
    ],
)


def cases(hidden: bool, short: bool = False) -> list[Case]:
    if short:
        # a cache shorter than the window (its start below 0) and one shorter than the sinks
        specs = ([(5, 2, 4), (3, 4, 2), (7, 3, 5), (2, 1, 6)] if hidden else
                 [(6, 2, 5), (4, 3, 3), (2, 1, 4), (8, 4, 6), (3, 5, 2)])
    else:
        specs = [(11, 3, 4), (9, 0, 2), (16, 2, 3)] if hidden else [(10, 2, 4), (12, 1, 3), (7, 0, 5), (20, 4, 6)]
    return [Case(s, why=f"Lk={s[0]}, n_sinks={s[1]}, window={s[2]}"
                 + (" (the sinks and the window overlap)" if s[1] + s[2] > s[0] else "")) for s in specs]


def check_sink_window_keys(sink_window_keys, hidden: bool = False) -> None:
    """Check ``sink_window_keys(Lk, n_sinks, window)`` on long caches (the sinks and the window apart)."""
    CARD.check(sink_window_keys, cases(hidden, False), hidden=hidden, show_values=True,
               passed="the n_sinks first keys and the window last ones")


def check_sink_window_keys_short(sink_window_keys, hidden: bool = False) -> None:
    """Check ``sink_window_keys`` on short caches, where the sinks and the window overlap."""
    CARD.check(sink_window_keys, cases(hidden, True), hidden=hidden, show_values=True,
               passed="every key kept once, even where the sinks and the window overlap")
