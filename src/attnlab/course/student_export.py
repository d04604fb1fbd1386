"""The student notebooks' file format, for nbgrader itself.

``nbgrader generate_assignment`` (run by ``make release``, or by hand from ``autograde/``) writes
``notebooks/`` through this exporter (``GenerateAssignment.exporter_class`` in
autograde/nbgrader_config.py), so a plain nbgrader run writes the same canonical files as
``make release``: header cell, prediction stubs, no outputs, no volatile metadata, sorted keys.
"""
from __future__ import annotations

import json
import os

from nbconvert.exporters import NotebookExporter

from .nbtext import dumps
from .release import finish_student_cells


class StudentNotebookExporter(NotebookExporter):
    def from_notebook_node(self, nb, resources=None, **kw):
        output, resources = super().from_notebook_node(nb, resources, **kw)
        info = (resources or {}).get("nbgrader", {}) or {}
        assignment = info.get("assignment") or ""
        notebook = info.get("notebook") or (resources or {}).get("unique_key") or ""
        if not assignment or not notebook:
            return output, resources
        data = finish_student_cells(json.loads(output), assignment, os.path.basename(notebook) + ".ipynb")
        return dumps(data), resources
