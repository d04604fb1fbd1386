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
# Ids are data. nbgrader's page templates (feedback, formgrader's formgrade view) print the ids
# they are given (student, assignment and notebook names, a learner's own first and last name)
# with Jinja's autoescape off, so an id nbgrader accepts, such as `<img src=x onerror=...>`, would
# be markup in the page an instructor or learner opens. These run last, after every preprocessor
# that looks the ids up in the gradebook, and leave in the resources only the escaped text the
# template prints (HTML-escaped, quotes included: safe in element text, attribute values and the
# double-quoted JavaScript strings of nbgrader's templates, where `&`, `<`, `"` and `'` cannot
# close the string or the script).

from nbconvert.preprocessors import Preprocessor as _Preprocessor
from traitlets import Bool as _Bool

_ESCAPED_MARK = "_attnlab_ids_escaped"


def escape_ids(values: dict, keys) -> None:
    """HTML-escape (once) the string values of ``keys`` in ``values``, in place."""
    import html

    for key in keys:
        if isinstance(values.get(key), str):
            values[key] = html.escape(values[key], quote=True)


class EscapeFeedbackIds(_Preprocessor):
    """The ids of a feedback page (``resources["nbgrader"]``: student, assignment, notebook),
    escaped for nbgrader's feedback template; last in ``GenerateFeedback.preprocessors``."""

    enabled = _Bool(True).tag(config=True)   # nbgrader's converters register it by name, not enabled

    def preprocess(self, nb, resources):
        ids = resources.get("nbgrader")
        if isinstance(ids, dict) and not ids.get(_ESCAPED_MARK):
            escape_ids(ids, ("student", "assignment", "notebook"))
            ids[_ESCAPED_MARK] = True
        return nb, resources


class EscapeFormgraderIds(_Preprocessor):
    """The ids formgrader's submission view passes its ``formgrade`` template (student, first
    and last name, assignment, notebook, paths), escaped; an ``HTMLExporter`` preprocessor, so a
    no-op for pages without them."""

    enabled = _Bool(True).tag(config=True)

    KEYS = ("student", "first_name", "last_name", "assignment_id", "notebook_id", "submission_id",
            "notebook_path", "filename", "base_url")

    def preprocess(self, nb, resources):
        if not resources.get(_ESCAPED_MARK) and any(isinstance(resources.get(k), str) for k in self.KEYS):
            escape_ids(resources, self.KEYS)
            resources[_ESCAPED_MARK] = True
        return nb, resources


# ---------------------------------------------------------------------------------------------
# After nbgrader's generate_feedback: pages a learner can read.

import html as _html
import json as _json
import re as _re
from pathlib import Path as _Path

from .mathjax import localise_html_file

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


# The feedback's shared MathJax copy: a name no student id can take (nbgrader, like `make grade`,
# never treats a folder whose name starts with a dot as a student's).
MATHJAX_FOLDER = ".mathjax"


def polish_feedback(root: _Path, assignment: str, pages: list[_Path] | None = None) -> list[_Path]:
    """Rewrite the feedback pages of ``assignment`` (``pages``, or every page there): exercise
    names in the summary, wrapped lines, and MathJax from disk (one copy in
    ``autograde/feedback/.mathjax/``, loaded by a relative URL) so equations are typeset with no
    network. Student ids are data: folders are listed, never matched as patterns."""
    feedback = root / "autograde" / "feedback"
    labels: dict[str, str] = {}
    for source in sorted((root / "solutions" / assignment).glob("*.ipynb")):
        try:
            labels.update(cell_labels(_json.loads(source.read_text(encoding="utf-8"))))
        except (OSError, ValueError):
            continue
    if pages is None:
        pages = []
        for student in sorted(feedback.iterdir()) if feedback.is_dir() else ():
            folder = student / assignment
            if student.name.startswith(".") or student.is_symlink() or not folder.is_dir() or folder.is_symlink():
                continue
            pages += sorted(p for p in folder.iterdir() if p.suffix == ".html" and p.is_file() and not p.is_symlink())
    for page in pages:
        page.write_text(polish_page(page.read_text(encoding="utf-8"), labels), encoding="utf-8")
        localise_html_file(page, mathjax_root=feedback / MATHJAX_FOLDER)
    return pages


class FeedbackIncomplete(RuntimeError):
    """A rendered feedback page that does not show the notebook it was made from."""


def check_page(page: str, notebook: dict) -> None:
    """A page counts as written only when it is a whole HTML document that shows every graded
    cell of its notebook (an empty or truncated render is an error, never a page)."""
    if "</html>" not in page:
        raise FeedbackIncomplete(f"the rendered page is not a whole HTML document ({len(page)} characters)")
    ids = [str(((c.get("metadata") or {}).get("nbgrader") or {}).get("grade_id", "")) for c in notebook.get("cells", [])
           if ((c.get("metadata") or {}).get("nbgrader") or {}).get("grade")]
    missing = [i for i in ids if i and i not in page]
    if missing:
        raise FeedbackIncomplete(f"the rendered page does not show {len(missing)} of the {len(ids)} graded "
                                 f"cells ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})")


_NO_ALT = _re.compile(r"<img\b(?![^>]*\balt\s*=)", _re.IGNORECASE)
NO_ALT_TEXT = "No description has been provided for this image"  # nbconvert's own words


class _Remembered:
    """nbconvert's ``highlight_code`` filter with a memory: the same source (most cells of a
    class's notebooks are the same handout cells) is highlighted once per worker, not once per
    page. Pygments was about half of a feedback page's time."""

    LIMIT = 4096  # entries kept; forgotten all at once past it (a class's distinct cells are far fewer)

    def __init__(self, highlight) -> None:
        self.highlight = highlight
        self.memo: dict = {}

    def __call__(self, source, language=None, metadata=None):
        try:
            key = (source, language, _json.dumps(metadata, sort_keys=True, default=repr))
        except (TypeError, ValueError):
            return self.highlight(source, language, metadata)
        if key not in self.memo:
            if len(self.memo) >= self.LIMIT:
                self.memo.clear()
            self.memo[key] = self.highlight(source, language, metadata)
        return self.memo[key]


def _without_soup(exporter_class):
    """nbconvert's HTML exporter, less its last pass: after rendering, nbconvert 7 parses the whole
    page with BeautifulSoup's pure-Python parser and writes it out again, only to give images
    without one an ``alt`` text and to make JupyterLab-template cells focusable. That pass was
    about half of a feedback page's time. nbgrader's feedback template is the classic one (no
    JupyterLab cells), so only the ``alt`` text is left to do, and it is done on the text."""
    from nbconvert.exporters.templateexporter import TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    class FeedbackExporter(exporter_class):
        def from_notebook_node(self, nb, resources=None, **kw):
            langinfo = nb.metadata.get("language_info", {})
            lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
            if "highlight_code" in self.filters:
                highlight = self.filters["highlight_code"]
            else:  # one per lexer, remembered by this exporter (one per worker process)
                highlighters = self.__dict__.setdefault("_attnlab_highlighters", {})
                if repr(lexer) not in highlighters:
                    highlighters[repr(lexer)] = _Remembered(Highlight2HTML(pygments_lexer=lexer, parent=self))
                highlight = highlighters[repr(lexer)]
            self.register_filter("highlight_code", highlight)
            resources = self._init_resources(resources)
            self.register_filter("filter_data_type", WidgetsDataTypeFilter(
                notebook_metadata=self._nb_metadata, parent=self, resources=resources))
            html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return _NO_ALT.sub(f'<img alt="{NO_ALT_TEXT}"', html), resources

    return FeedbackExporter


class FeedbackWriter:
    """nbgrader's feedback (its ``GenerateFeedback`` converter: the course's preprocessors and
    nbgrader's feedback template), one submission at a time in the grader's process, from the
    autograded notebook the grader wrote. nbgrader's own ``generate_feedback`` command finds
    submissions by glob patterns built from student ids, so an id such as ``lee [1]`` got no
    feedback; here each page is made from its known path, and a page that fails is that
    submission's problem only."""

    def __init__(self, root: _Path, base: _Path | None = None, db_url: str | None = None) -> None:
        """``base``: the folder with ``autograded/`` and ``feedback/`` (default ``autograde/``),
        ``db_url``: the gradebook (default the course's); a shard passes its own of both."""
        from nbgrader.converters import GenerateFeedback
        from nbgrader.coursedir import CourseDirectory
        from traitlets.config.loader import PyFileConfigLoader

        self.root = _Path(root)
        config = PyFileConfigLoader("nbgrader_config.py", path=str(self.root / "autograde")).load_config()
        self.coursedir = CourseDirectory(config=config)
        self.base = _Path(base) if base is not None else self.root / "autograde"
        self.db_url = db_url or self.coursedir.db_url
        converter = GenerateFeedback(coursedir=self.coursedir, config=config)
        self.exporter = _without_soup(converter.exporter_class)(parent=converter, config=converter.config)
        for pp in converter.preprocessors:
            self.exporter.register_preprocessor(pp)

    def write(self, student: str, assignment: str, notebook: str) -> _Path:
        """The feedback page of one autograded notebook (``notebook``: its file name)."""
        import os
        import shutil

        nb_id = notebook[: -len(".ipynb")] if notebook.endswith(".ipynb") else notebook
        src = self.base / "autograded" / student / assignment
        dest = self.base / "feedback" / student / assignment
        resources = {"unique_key": nb_id, "output_files_dir": f"{nb_id}_files",
                     "nbgrader": {"student": student, "assignment": assignment, "notebook": nb_id,
                                  "db_url": self.db_url}}
        page, _ = self.exporter.from_filename(str(src / f"{nb_id}.ipynb"), resources=resources)
        check_page(page, _json.loads((src / f"{nb_id}.ipynb").read_text(encoding="utf-8")))
        dest.mkdir(parents=True, exist_ok=True)
        path = dest / f"{nb_id}.html"
        tmp = dest / f".{nb_id}.html.tmp"
        tmp.write_text(page, encoding="utf-8")
        os.chmod(tmp, 0o644)
        tmp.replace(path)
        for name in ("timestamp.txt", "submission_secret.txt"):  # release_feedback needs both
            if (src / name).is_file() and not (src / name).is_symlink():
                shutil.copyfile(src / name, dest / name)
        return path
