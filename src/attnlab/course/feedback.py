"""Feedback that explains failures without revealing hidden tests."""
from __future__ import annotations

from nbgrader.preprocessors import ClearHiddenTests
from nbgrader import utils


class HideHiddenTests(ClearHiddenTests):
    """Remove hidden-test regions from grade cells and shorten their tracebacks.

    ``ClearHiddenTests`` drops the code between ``### BEGIN HIDDEN TESTS`` and
    ``### END HIDDEN TESTS``; a traceback would still quote the failing hidden line, so the error
    output of every grade cell is reduced to its last line, ``CheckFailure: <message>``, which is
    the check's explanation of the mistake (hidden checks never print their inputs' values).
    A note says how many hidden lines were removed.
    """

    def preprocess_cell(self, cell, resources, cell_index):
        removed = False
        if utils.is_grade(cell) and cell.cell_type == "code":
            removed = self.begin_test_delimeter in cell.source
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if utils.is_grade(cell) and cell.cell_type == "code":
            if removed:
                cell.source = cell.source.rstrip() + "\n# (hidden tests run here; they are not shown)"
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources


# ---------------------------------------------------------------------------------------------
# After nbgrader's generate_feedback: pages a learner can read.

import html as _html
import json as _json
import re as _re
from pathlib import Path as _Path

WRAP_CSS = """<style type="text/css">
/* attnlab: long check messages and tracebacks wrap instead of running off the box */
div.output_area pre, div.output_subarea pre, div.output_text pre, pre {
  white-space: pre-wrap; overflow-wrap: anywhere; word-break: normal;
}
</style>"""

_CHECK_CALL = _re.compile(r"\bcheck_\w+\(\s*([A-Za-z_]\w*)")
_DOCSTRING = _re.compile(r'^\s*(?:"""|\'\'\')(.*?)(?:"""|\'\'\')', _re.S)


def cell_labels(source_nb: dict) -> dict[str, str]:
    """``{grade_id: label}`` for every grade cell: the exercise it checks and what it checks,
    e.g. ``softmax: normalises along any axis, for any shape``."""
    labels = {}
    for cell in source_nb.get("cells", []):
        meta = cell.get("metadata", {}).get("nbgrader", {}) or {}
        if not (meta.get("grade") and meta.get("grade_id")) or meta.get("solution"):
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        call = _CHECK_CALL.search(src)
        doc = _DOCSTRING.match(src)
        what = " ".join(doc.group(1).split()) if doc else ""
        exercise = call.group(1) if call else meta["grade_id"]
        if what.lower().startswith("check that "):
            what = what[len("check that "):]
            if what.lower().startswith(exercise.lower() + " "):
                what = what[len(exercise) + 1:]
        labels[meta["grade_id"]] = f"{exercise}: {what.rstrip('.')}" if what else exercise
    return labels


def polish_page(page: str, labels: dict[str, str]) -> str:
    """Name each graded cell in the summary, and make long lines wrap."""
    def name(match: _re.Match) -> str:
        gid = match.group(1)
        label = labels.get(_html.unescape(gid))
        return f'<a href="#{gid}">{_html.escape(label)}</a>' if label else match.group(0)

    page = _re.sub(r'<a href="#([^"]+)">Test cell</a>', name, page)
    if "attnlab: long check messages" not in page:
        at = _re.search(r"</head\s*>", page, _re.I)
        if at is not None:
            page = page[: at.start()] + WRAP_CSS + "\n" + page[at.start():]
    return page


def polish_feedback(root: _Path, assignment: str) -> list[_Path]:
    """Rewrite every feedback page of ``assignment``: exercise names in the summary, wrapped
    lines, and MathJax from disk (one copy in ``autograde/feedback/mathjax/``, loaded by a
    relative URL) so equations are typeset with no network."""
    from .mathjax import localise_html_file

    feedback = root / "autograde" / "feedback"
    labels: dict[str, str] = {}
    for source in sorted((root / "solutions" / assignment).glob("*.ipynb")):
        try:
            labels.update(cell_labels(_json.loads(source.read_text(encoding="utf-8"))))
        except (OSError, ValueError):
            continue
    pages = sorted(feedback.glob(f"*/{assignment}/*.html"))
    for page in pages:
        page.write_text(polish_page(page.read_text(encoding="utf-8"), labels), encoding="utf-8")
        localise_html_file(page, mathjax_root=feedback / "mathjax")
    return pages
