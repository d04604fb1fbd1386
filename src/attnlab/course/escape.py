"""One escaping for every id and learner string a terminal, a log, a CSV or a page shows.

A student id, an assignment folder's name, a notebook's error text or a learner's exception
message is data: written where a person reads lines (the progress output, ``grading.log``,
``grades.csv``, a warning, a feedback page's detail, a hosted ``results.json``), nothing in it
may end the line, return the cursor, colour or retitle a terminal (ANSI CSI and OSC sequences
start with ESC, or with their one-byte C1 forms), reorder the text (bidirectional overrides) or
forge a line that looks like the grader's (``x\\nzz_victim 01_weighted_averages graded 0``).

The rule is an allow-list: every character that Python calls printable stays, every other one
(C0 and C1 controls including newline, carriage return and tab, DEL, line and paragraph
separators, format characters, unassigned code points, lone surrogates) is written as a visible
escape (``\\x0a``, ``\\x1b``, ``\\u2028``). The result is one line. Backslashes are kept as they
are, so an id that is already plain text (``back\\slash``) reads the same.
"""
from __future__ import annotations


def shown(value) -> str:
    """``value`` (any object; None is empty) as one line of plain text: every character that is
    not printable written as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    if text.isprintable():  # (the common case: nothing to do)
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def shown_lines(text, indent: str = "   | ") -> str:
    """A block of the grader's own lines (a traceback, a process's output) for a log: each line
    :func:`shown`, every line after the first marked with ``indent``, so that no line of the block
    can pass for one of the log's own."""
    lines = ("" if text is None else str(text)).split("\n")
    return ("\n" + indent).join(shown(line) for line in lines)
