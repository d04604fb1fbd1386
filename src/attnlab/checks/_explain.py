"""``explain``: the code-level fix of the last failing check, or what an exercise's checks can
name (its card), in the learner's session."""
from __future__ import annotations

from ._core import _LAST, feedback_level


def explain(exercise: str | None = None) -> None:
    """Print the code-level fix for the last failing check of ``exercise`` (or of any)."""
    if feedback_level() == "mistake-only":
        print("Code-level fixes are turned off for this course: the check names the mistake; "
              "your notes, the hints and the equations tell you how to fix it.")
        return
    if exercise is None and _LAST:
        exercise = next(reversed(_LAST))
    if exercise not in _LAST:
        # (imported here: the cards import this package's machinery, so this module cannot import
        # them at its top without a circle)
        from ..cards import card

        found = card(exercise) if exercise else None
        if found is None:
            print(f"No failing check of {exercise} in this session yet, and no exercise of that name."
                  if exercise else "No failing check in this session yet; explain(\"softmax\") shows "
                  "what the checks of an exercise can name.")
            return
        print(f"No failing check of {exercise} in this session yet. Its card:\n{found.describe()}")
        return
    _, mistake = _LAST[exercise]
    if mistake is None:
        print(f"The last failing check of {exercise} did not recognise the mistake, so there is "
              "no code-level fix to show: compare each step with the exercise's equation on a tiny input.")
        return
    print(f"{exercise}: {mistake.name}.\nHow to fix it: {mistake.fix}")
