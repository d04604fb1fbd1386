"""The student notebooks' file format, for nbgrader itself.

``nbgrader generate_assignment`` (run by ``make release``, or by hand from ``autograde/``) writes
``notebooks/`` through this exporter (``GenerateAssignment.exporter_class`` in
autograde/nbgrader_config.py), so a plain nbgrader run writes the same canonical files as
``make release``: header cell, no outputs, no volatile metadata, sorted keys.
"""
from __future__ import annotations

import json
import os

from nbconvert.exporters import NotebookExporter

from .nbtext import canonical, dumps


class StudentNotebookExporter(NotebookExporter):
    def from_notebook_node(self, nb, resources=None, **kw):
        from .release import HEADER_ID, header_cell

        output, resources = super().from_notebook_node(nb, resources, **kw)
        info = (resources or {}).get("nbgrader", {}) or {}
        assignment = info.get("assignment") or ""
        notebook = info.get("notebook") or (resources or {}).get("unique_key") or ""
        if not assignment or not notebook:
            return output, resources
        data = canonical(json.loads(output))
        data["cells"] = [c for c in data["cells"] if c.get("id") != HEADER_ID]
        data["cells"].insert(0, header_cell(assignment, os.path.basename(notebook) + ".ipynb"))
        return dumps(data), resources
