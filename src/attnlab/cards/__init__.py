"""One card per exercise (see :mod:`attnlab.cards._card`): ``card("softmax")`` is the softmax
exercise's card, ``cards_of("01_weighted_averages")`` a notebook's, ``all_cards()`` every one.

Importing this package imports every card (each card's module defines its exercise's ``check_*``
functions, which :mod:`attnlab.checks` hands out). The cards import the checks' machinery; the
machinery never imports the cards at its top.
"""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from ._card import Card, Contract, Example

__all__ = ["Card", "Contract", "Example", "all_cards", "card", "cards_of", "modules"]

_MODULES: dict[str, ModuleType] = {
    m.name: importlib.import_module(f"{__name__}.{m.name}")
    for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name) if not m.name.startswith("_")
}


def modules() -> list[ModuleType]:
    """Every card's module, by file name."""
    return list(_MODULES.values())


def all_cards() -> list[Card]:
    """Every card, in the course's order (notebook, then the card's file name)."""
    return sorted((m.CARD for m in _MODULES.values()), key=lambda c: (c.notebook, c.exercise))


def cards_of(notebook: str) -> list[Card]:
    """The cards of one notebook (``"01_weighted_averages"``)."""
    return [c for c in all_cards() if c.notebook == notebook]


def card(exercise: str) -> Card | None:
    """The card of ``exercise`` (its function's or class's name), or None."""
    if exercise in _MODULES:
        return _MODULES[exercise].CARD
    return next((c for c in all_cards() if c.exercise == exercise), None)
