"""kv_cache_bytes (notebook 11): the bytes of a key-value cache, keys and values for every layer,
key/value head, cached token, sequence and byte, ``min(seq_len, window)`` tokens with a window."""
from __future__ import annotations

from .. import modern as _ref
from ..checks._core import Case, Mistake
from ._card import Card, Contract

_BOTH = ("test_kv_cache_bytes", "test_kv_cache_bytes_window")
_WINDOW = ("test_kv_cache_bytes_window",)

CARD = Card(
    "kv_cache_bytes", "11_modern_attention",
    summary="the bytes of the keys and values a decoder keeps for every layer, key/value head, cached token "
            "and sequence",
    contract=Contract(
        args=("num_layers", "num_kv_heads", "head_dim", "seq_len", "batch", "bytes_per_value", "window"),
        reference=_ref.kv_cache_bytes, rtol=1e-9,
        shapes="positive integers; batch (default 1), bytes_per_value (default 2, bf16), window "
               "(default None: no window)",
        returns="an int, the bytes of the keys and values of every layer and key/value head"),
    mistakes=[
        Mistake(
            "K and V counted once (no factor 2)",
            principle="Every cached token stores a key and a value vector per layer and per key/value head.",
            fix="the cache holds keys and values: multiply by 2.",
            fails=_BOTH, code='''
                def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
                    kept = seq_len if window is None else min(seq_len, window)
                    return num_layers * num_kv_heads * head_dim * kept * batch * bytes_per_value
                '''),
        Mistake(
            "bits for bytes (8 times too many)",
            principle="Count bytes: bytes_per_value is 2 for bf16, not 16.",
            fix="`bytes_per_value` is already in bytes: do not multiply by 8.",
            fails=_BOTH, code='''
                def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
                    kept = seq_len if window is None else min(seq_len, window)
                    bits = bytes_per_value * 8
                    return 2 * num_layers * num_kv_heads * head_dim * kept * batch * bits
                '''),
        Mistake(
            "the window ignored in the calculator",
            principle="A sliding window keeps only the last window tokens in the cache.",
            fix="cache `min(seq_len, window)` tokens when a window is given.",
            fails=_WINDOW, code='''
                def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
                    return 2 * num_layers * num_kv_heads * head_dim * seq_len * batch * bytes_per_value
                '''),
        Mistake(
            "the window used even when the sequence is shorter (window instead of min(seq_len, window))",
            principle="A cache never holds more tokens than the sequence has.",
            fix="cache `min(seq_len, window)` tokens.",
            fails=_WINDOW, code='''
                def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
                    kept = window if window else seq_len
                    return 2 * num_layers * num_kv_heads * head_dim * kept * batch * bytes_per_value
                '''),
        Mistake(
            "the batch ignored",
            principle="Each sequence of the batch has its own keys and values.",
            fix="multiply by `batch`: every sequence has its own cache.",
            fails=_BOTH, code='''
                def kv_cache_bytes(num_layers, num_kv_heads, head_dim, seq_len, batch=1, bytes_per_value=2, window=None):
                    kept = seq_len if window is None else min(seq_len, window)
                    return 2 * num_layers * num_kv_heads * head_dim * kept * bytes_per_value
                '''),
    ],
)


def cases(hidden: bool, windowed: bool = False) -> list[Case]:
    if windowed:
        specs = [((4, 2, 16, 100), dict(window=8, batch=3)), ((2, 3, 8, 5), dict(window=7))] if hidden else \
            [((32, 32, 128, 32768), dict(window=1024)), ((3, 2, 4, 10), dict(window=4, batch=3, bytes_per_value=4)),
             ((2, 1, 8, 6), dict(window=9))]
    else:
        specs = [((6, 3, 64, 1000), dict(batch=2)), ((2, 5, 8, 7), dict(bytes_per_value=4))] if hidden else \
            [((32, 32, 128, 32768), {}), ((32, 8, 128, 32768), {}), ((3, 2, 4, 5), dict(batch=3, bytes_per_value=4))]
    return [Case(a, kw, why=f"{a} {kw}" if kw else f"{a}") for a, kw in specs]


def check_kv_cache_bytes(kv_cache_bytes, hidden: bool = False) -> None:
    """Check ``kv_cache_bytes(...)`` with no window (among the cases, the notebook's 17.18 GB and 4.29 GB)."""
    CARD.check(kv_cache_bytes, cases(hidden, False), hidden=hidden, show_values=True,
               passed="keys and values, every layer, head, token, sequence and byte")


def check_kv_cache_bytes_window(kv_cache_bytes, hidden: bool = False) -> None:
    """Check ``kv_cache_bytes(..., window=w)``: ``min(seq_len, window)`` tokens."""
    CARD.check(kv_cache_bytes, cases(hidden, True), hidden=hidden, show_values=True,
               passed="a window bounds the cache at min(seq_len, window) tokens")
