"""One card per exercise (see :mod:`attnlab.cards._card`): ``card("softmax")`` is the softmax
exercise's card, ``cards_of("01_weighted_averages")`` a notebook's, ``all_cards()`` every one."""
from __future__ import annotations

import importlib
import pkgutil

from .. import checks as _checks  # noqa: F401 - the checks import the cards: load them first
from ._card import Card, Contract, Example

__all__ = ["Card", "Contract", "Example", "all_cards", "card", "cards_of"]


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def all_cards() -> list[Card]:
    """Every card, in the course's order (notebook, then the card's file name)."""
    cards = [importlib.import_module(f"{__name__}.{name}").CARD for name in _modules()]
    return sorted(cards, key=lambda c: (c.notebook, c.exercise))


def cards_of(notebook: str) -> list[Card]:
    """The cards of one notebook (``"01_weighted_averages"``)."""
    return [c for c in all_cards() if c.notebook == notebook]


def card(exercise: str) -> Card | None:
    """The card of ``exercise`` (its function's or class's name), or None."""
    if exercise.isidentifier() and exercise in _modules():
        return importlib.import_module(f"{__name__}.{exercise}").CARD
    return next((c for c in all_cards() if c.exercise == exercise), None)
