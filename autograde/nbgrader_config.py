"""nbgrader configuration of the attnlab course (nbgrader 0.9.6).

Run nbgrader from this folder (``make release`` and ``make grade`` do). Layout, relative to the
repository root:

    solutions/<assignment>/<assignment>.ipynb      source: notebooks with solutions and hidden tests
    notebooks/<assignment>/<assignment>.ipynb      release: the generated student notebooks
    autograde/submitted/<student>/<assignment>/    submissions you collect
    autograde/autograded/, autograde/feedback/     what grading writes
    autograde/gradebook.db                         the sqlite gradebook
"""
import os

from attnlab.course.feedback import HideHiddenTests

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

ROOT = os.environ.get("ATTNLAB_COURSE_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The course secret: the hidden tests' inputs derive from it (attnlab.course.secret). Set
# ATTNLAB_COURSE_SECRET, or keep it in autograde/course_secret (gitignored; `make release`
# creates it on first use). Without it the hidden tests use public inputs.
from attnlab.course.secret import read as _read_secret  # noqa: E402

if _read_secret(__import__("pathlib").Path(ROOT)):
    os.environ.setdefault("ATTNLAB_COURSE_SECRET", _read_secret(__import__("pathlib").Path(ROOT)))

c.CourseDirectory.root = ROOT
c.CourseDirectory.course_id = "attnlab"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.submitted_directory = "autograde/submitted"
c.CourseDirectory.autograded_directory = "autograde/autograded"
c.CourseDirectory.feedback_directory = "autograde/feedback"
c.CourseDirectory.solution_directory = "autograde/solution"
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(ROOT, "autograde", "gradebook.db")
# The exchange (nbgrader's release_assignment, fetch_assignment, submit, collect,
# release_feedback, fetch_feedback): a folder every learner can reach, on one machine or a
# shared disk (JupyterHub: see deploy/). ATTNLAB_EXCHANGE overrides nbgrader's default.
c.Exchange.root = os.environ.get("ATTNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", ".*"]

# Student notebooks in the course's canonical form (header, no outputs), also when
# `nbgrader generate_assignment` is run by hand instead of `make release`.
c.GenerateAssignment.exporter_class = "attnlab.course.student_export.StudentNotebookExporter"

# Student stubs: what replaces the code between ### BEGIN SOLUTION and ### END SOLUTION.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# nbgrader scores a grade cell that wrote anything to stderr as 0, so a harmless warning (a
# deprecation in matplotlib, say) would zero a correct answer. A grade cell fails by raising;
# stderr is never a verdict, so every stderr stream is dropped before scoring.
c.IgnorePattern.pattern = r"(?s).*"
c.IgnorePattern.enabled = True

# A learner who deletes a test cell must not escape it: restore missing grade cells.
c.OverwriteCells.add_missing_cells = True

# Late work (due dates: autograde/due_dates.csv). The penalty, applied by `make grade` and by a
# plain `nbgrader autograde` alike: nbgrader's late-submission plugin with two more rules
# (attnlab.course.late). penalty_method: "none" (nbgrader's default: late work is marked `late`,
# nothing is taken off), "zero" (late work scores 0), "per_hour" / "per_day": `points` off for
# every started hour / day after the due date. Never more than the score; grades.csv, the
# feedback and `nbgrader export` show the score after the penalty, the gradebook keeps both.
c.AssignLatePenalties.plugin_class = "attnlab.course.late.LatePenalty"
c.LatePenalty.penalty_method = "none"
c.LatePenalty.points = 0.0

# Per-cell timeout (seconds). Every notebook runs in about a minute on a laptop CPU; a cell that
# takes 2 minutes under grading is stuck.
c.Execute.timeout = 120
c.Execute.interrupt_on_timeout = True

# Bounded output in the autograded notebooks.
c.LimitOutput.max_lines = 500
c.LimitOutput.max_traceback = 50

# `nbgrader export` writes the course's grades.csv (status, detail, one column per grade cell,
# manual scores included) instead of overwriting it with nbgrader's own columns.
# `nbgrader export --exporter=nbgrader.plugins.CsvExportPlugin --to=FILE` gives nbgrader's format.
c.ExportApp.plugin_class = "attnlab.course.records.CourseExportPlugin"

# Feedback shows the learner their own code and the visible checks, never the hidden tests.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    HideHiddenTests,
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    # last: the page's ids (student, assignment, notebook) are printed as text, never as markup
    "attnlab.course.feedback.EscapeFeedbackIds",
]
# formgrader's view of a submission prints the student's id and names, the assignment's and the
# notebook's: as text (nbgrader's template does not escape them)
c.HTMLExporter.preprocessors = ["attnlab.course.feedback.EscapeFormgraderIds"]

# Concept checks (attnlab.concepts): the same questions before and after each notebook. The answers
# are recorded by `make grade` and shown in `attnlab-course report` and the exports either way; the
# "before" check is never graded. "graded" gives the "after" check's score 100 points in Canvas's
# Points Possible row of `attnlab-course export`; "ungraded" (the default) gives it none.
c.ConceptChecks.after = "ungraded"
