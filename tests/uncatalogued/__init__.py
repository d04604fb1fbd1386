"""A corpus of wrong implementations that are NOT in the catalogue (issue 27).

The catalogue (the cards' mistakes, ``src/attnlab/cards/``) lists the mistakes the course teaches, one check at a time.
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
        """What the message says about the answer (:func:`diagnosis`) mentions one of ``words``
        (no words: nothing to require)."""
        low = diagnosis(message).lower()
        return not self.words or any(w.lower() in low for w in self.words)


_PROBLEM_STARTS = (": your ", ": the ", ": item ")


def diagnosis(message: str) -> str:
    """A check's message without what would match any word by accident: the description of the
    input (``On X of shape (2, 3), mask=... (why):``) and the exercise's own name (``masked_softmax``
    holds "mask" and "max", ``decode_with_cache`` holds "cache")."""
    lines = message.splitlines()
    exercise = lines[0].split()[0] if lines and lines[0].split() else ""
    out = []
    for line in lines:
        if line.startswith("On "):
            starts = [line.find(p) for p in _PROBLEM_STARTS + (f": {exercise} ",) if p in line]
            line = line[min(starts) + 2:] if starts else ""
        out.append(line)
    text = "\n".join(out)
    return text.replace(exercise, "") if exercise else text


def U(solution: str, code: str, fails: tuple[str, ...] | str, label: str, *, words: tuple[str, ...] | str = (),
      needs_layer: bool = False, accepted: str = "", kind: str = "") -> Uncatalogued:
    """An entry; ``label`` names it (unique within its exercise)."""
    fails = (fails,) if isinstance(fails, str) else tuple(fails)
    words = (words,) if isinstance(words, str) else tuple(words)
    return Uncatalogued(solution, code, fails, "", label=label, words=words, needs_layer=needs_layer,
                        accepted=accepted, kind=kind)


def corpus(assignment: str) -> list[Uncatalogued]:
    """The entries of ``tests/uncatalogued/<nbNN_name>.py`` (its ``WRONG`` list), [] if none."""
    name = f"uncatalogued.{assignment_module(assignment)}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # the file is there but imports something gone: say so, never drop it
            raise
        return []
    return list(module.WRONG)


def all_entries() -> list[tuple[str, Uncatalogued]]:
    return [(a, w) for a in assignments() for w in corpus(a)]
