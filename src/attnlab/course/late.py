"""The late-submission penalty: nbgrader's ``LateSubmissionPlugin`` with per-hour and per-day rules.

The instructor sets it in ``autograde/nbgrader_config.py``; ``make grade`` (``mark_late``) and a
plain ``nbgrader autograde`` (its ``AssignLatePenalties`` step) both apply it::

    c.AssignLatePenalties.plugin_class = "attnlab.course.late.LatePenalty"
    c.LatePenalty.penalty_method = "per_day"   # none | zero | per_hour | per_day
    c.LatePenalty.points = 1.0                 # points off per started hour or day late

``none`` (nbgrader's default) takes nothing off; ``zero`` takes everything (nbgrader's own
``zero``); ``per_hour`` / ``per_day`` take ``points`` for every hour or day late, a started one
counting whole (1 second late = 1 period). A penalty is never more than the score, so a score
never goes below 0. The gradebook keeps the raw scores and the penalty
(``SubmittedNotebook.late_submission_penalty``, as nbgrader does); ``grades.csv``, the feedback
and nbgrader's own export show the score minus the penalty.
"""
from __future__ import annotations

import math
import os
from pathlib import Path

from nbgrader.plugins import LateSubmissionPlugin
from traitlets import Enum, Float

from attnlab.checks._core import SECRET_ENV

PERIODS = {"per_hour": (3600.0, "hour"), "per_day": (86400.0, "day")}


class LatePenalty(LateSubmissionPlugin):
    """nbgrader's late-submission plugin, plus a fixed number of points per started hour or day."""

    penalty_method = Enum(
        ("none", "zero", "per_hour", "per_day"), default_value="none",
        help="none: no penalty (nbgrader's default); zero: the whole score; per_hour / per_day: "
             "`points` for every started hour / day after the due date (never more than the score)",
    ).tag(config=True)

    points = Float(0.0, help="points off per started hour (per_hour) or day (per_day) late").tag(config=True)

    def late_submission_penalty(self, student_id: str, score: float, total_seconds_late: float):
        if total_seconds_late <= 0 or self.penalty_method == "none":
            return None
        if self.penalty_method == "zero":
            return score
        seconds, _ = PERIODS[self.penalty_method]
        return max(0.0, float(self.points)) * math.ceil(total_seconds_late / seconds)

    def describe(self) -> str:
        """The rule in words, for the detail of a late row."""
        if self.penalty_method == "zero":
            return "late work scores 0"
        if self.penalty_method in PERIODS:
            return f"{float(self.points):g} point(s) per started {PERIODS[self.penalty_method][1]} late"
        return "no late penalty"


def penalty(plugin, student: str, score: float, seconds_late: float) -> float:
    """The points ``plugin`` takes off, clamped as nbgrader's ``AssignLatePenalties`` clamps them:
    never below 0, never more than ``score``."""
    if plugin is None or seconds_late <= 0:
        return 0.0
    value = plugin.late_submission_penalty(student, score, seconds_late)
    if value is None:
        return 0.0
    return min(max(0.0, float(value)), max(0.0, float(score)))


def describe(plugin) -> str:
    return plugin.describe() if hasattr(plugin, "describe") else type(plugin).__name__


def load(root: Path):
    """The late-submission plugin ``autograde/nbgrader_config.py`` configures
    (``AssignLatePenalties.plugin_class``, nbgrader's ``LateSubmissionPlugin`` if unset), made
    with that configuration; None if the file cannot be read."""
    from traitlets.config.loader import PyFileConfigLoader
    from traitlets.utils.importstring import import_item

    folder = Path(root) / "autograde"
    if not (folder / "nbgrader_config.py").is_file():
        return None
    had_secret = SECRET_ENV in os.environ
    try:
        config = PyFileConfigLoader("nbgrader_config.py", path=str(folder)).load_config()
    finally:
        # the course's configuration exports the course secret for nbgrader's own processes; the
        # grader keeps it out of its environment (attnlab.course.secret)
        if not had_secret:
            os.environ.pop(SECRET_ENV, None)
    cls = config.AssignLatePenalties.get("plugin_class", LateSubmissionPlugin)
    if isinstance(cls, str):
        cls = import_item(cls)
    return cls(config=config)
