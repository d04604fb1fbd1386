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
