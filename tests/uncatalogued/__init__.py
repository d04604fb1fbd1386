"""A corpus of wrong implementations that are NOT in the catalogue (issue 27).

The catalogue (``tests/catalogue/``) lists the mistakes the course teaches, one check at a time.
This corpus holds the mistakes nobody listed, written the way learners write them: fixed-rank
code (no batch axis, ``.T`` on batched arrays), two mistakes at once, torch/numpy mixes,
off-by-one positions, masks on the wrong axis, modules reused for the wrong job, ...

Each entry is a :class:`coursekit.Wrong` (same format, same route: the entry's code replaces the
solution cell, the grade cells in ``fails`` run in-process) with three more fields:

* ``words``: where a learner would expect the message to name the mistake, words of which at
  least one must appear in it (case-insensitive), e.g. ``("transpose",)`` or ``("sqrt", "scale")``;
* ``needs_layer``: True when naming it depends on the general diagnosis layer of issue 27
  (``attnlab.checks._relations``), still being written; the words are then expected, not required;
* ``accepted``: the check that lets this wrong code through today (a finding of issue 27); the
  entry is expected to keep its points until that check is fixed.

``message`` is left empty: the catalogue's exact mistake names do not apply here.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from coursekit import Wrong, assignment_module, assignments


@dataclass(frozen=True)
class Uncatalogued(Wrong):
    words: tuple[str, ...] = ()
    needs_layer: bool = False
    accepted: str = ""
    kind: str = ""  # the learner's kind of mistake: "fixed-rank", "two at once", "torch/numpy", ...

    def names_it(self, message: str) -> bool:
        """The message mentions one of ``words`` (no words: nothing to require)."""
        low = message.lower()
        return not self.words or any(w.lower() in low for w in self.words)


def U(solution: str, code: str, fails: tuple[str, ...] | str, label: str, *, words: tuple[str, ...] | str = (),
      needs_layer: bool = False, accepted: str = "", kind: str = "") -> Uncatalogued:
    """An entry; ``label`` names it (unique within its exercise)."""
    fails = (fails,) if isinstance(fails, str) else tuple(fails)
    words = (words,) if isinstance(words, str) else tuple(words)
    return Uncatalogued(solution, code, fails, "", label=label, words=words, needs_layer=needs_layer,
                        accepted=accepted, kind=kind)


def corpus(assignment: str) -> list[Uncatalogued]:
    """The entries of ``tests/uncatalogued/<nbNN_name>.py`` (its ``WRONG`` list), [] if none."""
    try:
        module = importlib.import_module(f"uncatalogued.{assignment_module(assignment)}")
    except ModuleNotFoundError:
        return []
    return list(module.WRONG)


def all_entries() -> list[tuple[str, Uncatalogued]]:
    return [(a, w) for a in assignments() for w in corpus(a)]
