"""Input checks shared by the numpy and torch references.

Every public function validates its arguments with these helpers, so that a bad input gets a
``ValueError`` that names the argument, the expected shape and the shape it got, instead of a
silent broadcast or a NaN (docs/contract.md, "Conventions").
"""
from __future__ import annotations

from typing import Any, Sequence


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of a numpy array or torch tensor as a plain tuple."""
    return tuple(int(s) for s in x.shape)


def fmt(shape: Sequence[Any]) -> str:
    """``(3, 4)`` for a shape, ``(..., Lq, Dk)`` for a spec given as letters."""
    parts = [str(s) for s in shape]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def require_ndim(x: Any, name: str, spec: Sequence[str], *, batch: bool = True) -> None:
    """Check that ``x`` has at least (``batch``) or exactly ``len(spec)`` dimensions.

    ``spec`` holds the shape letters of the trailing dimensions, e.g. ``("Lq", "Dk")``.
    """
    shape = shape_of(x)
    letters = (["..."] if batch else []) + list(spec)
    ok = len(shape) >= len(spec) if batch else len(shape) == len(spec)
    if not ok:
        raise ValueError(f"{name}: expected shape {fmt(letters)}, got {fmt(shape)}")


def require_equal(
    size_a: int, size_b: int, what: str, name_a: str, shape_a: Sequence[int], name_b: str,
    shape_b: Sequence[int],
) -> None:
    """Check that two sizes that must agree (e.g. the ``Dk`` of Q and K) do agree."""
    if size_a != size_b:
        raise ValueError(
            f"{name_a} and {name_b} must have the same {what}: "
            f"got {name_a} {fmt(shape_a)} and {name_b} {fmt(shape_b)}"
        )


def require_qkv(Q: Any, K: Any, V: Any) -> None:
    """Check queries ``(..., Lq, Dk)``, keys ``(..., Lk, Dk)`` and values ``(..., Lk, Dv)``:
    the ranks, the shared width ``Dk`` of Q and K, the shared length ``Lk`` of K and V."""
    require_ndim(Q, "Q", ("Lq", "Dk"))
    require_ndim(K, "K", ("Lk", "Dk"))
    require_ndim(V, "V", ("Lk", "Dv"))
    require_equal(Q.shape[-1], K.shape[-1], "last dimension Dk", "Q", Q.shape, "K", K.shape)
    require_equal(K.shape[-2], V.shape[-2], "length Lk", "K", K.shape, "V", V.shape)


def require_broadcastable(
    shape: Sequence[int], target: Sequence[int], name: str, target_desc: str
) -> None:
    """Check that ``shape`` broadcasts to ``target`` without changing ``target``."""
    shape, target = tuple(shape), tuple(target)
    ok = len(shape) <= len(target) and all(
        s == t or s == 1 for s, t in zip(shape[::-1], target[::-1])
    )
    if not ok:
        raise ValueError(
            f"{name}: expected a shape that broadcasts to {target_desc} {fmt(target)}, "
            f"got {fmt(shape)}"
        )


def require_int(value: Any, name: str, *, minimum: int = 0) -> int:
    """Check that ``value`` is an integer (not a bool) of at least ``minimum``."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name}: expected an integer, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {value}")
    return int(value)
