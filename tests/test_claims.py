"""The claims mechanism (``attnlab.claims``; docs/contract.md, "Text that is true").

A checkable sentence wraps its number or verdict in ``<span data-claim="name">...</span>`` and a
code cell calls ``attnlab.claims.claim("name", value)``. This file tests the mechanism: reading
spans, reading the number a text shows, judging text against value, and the notebook-level
verdict. The notebooks' own claims are checked where the solution notebooks already run, once
each, in the normal configuration (``NBGRADER_EXECUTION`` unset):
``tests/test_notebooks.py::test_solution_notebook_executes`` sets ``ATTNLAB_CLAIMS_FILE`` for the
kernel and fails on any of :func:`attnlab.claims.problems`. Executing them again here would double
the suite's most expensive step. The last test here runs a tiny notebook through that same path.
"""
from __future__ import annotations

import json
import re

import nbformat
import pytest
from nbclient import NotebookClient

import coursekit as ck
from attnlab import claims
from attnlab.claims import claim, disagreement, number_in, problems, read_recorded, spans


# --- spans ------------------------------------------------------------------------------------

def test_spans_reads_name_and_text_without_tags():
    md = ('In float64 exp overflows above about <span data-claim="exp_overflow_f64">709.8</span>.\n'
          'The dot <span data-claim="dot_negative">goes **below** <em>zero</em>\nat long offsets</span>.')
    assert spans(md) == [("exp_overflow_f64", "709.8"),
                         ("dot_negative", "goes **below** zero\nat long offsets")]


def test_spans_accepts_other_attributes_and_quotes():
    md = """<span title="t" data-claim='a_1'>3</span> and <span data-claim="b" class="c" >4</span>"""
    assert spans(md) == [("a_1", "3"), ("b", "4")]


def test_spans_ignores_plain_spans_and_text():
    assert spans('<span class="x">1.5</span> and data-claim="y" in prose') == []


# --- number_in --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, number, decimals", [
    ("709.8", 709.8, 1),
    ("1,713", 1713.0, 0),                     # thousands with commas
    ("20,000 sentence pairs", 20000.0, 0),
    ("1 565 steps", 1565.0, 0),               # thousands with spaces (the docs' style)
    ("1,234.56", 1234.56, 2),
    ("96.4%", 96.4, 1),                       # percent: the number in the text's units
    ("3.1x", 3.1, 1),                         # a ratio
    ("0.74x faster", 0.74, 2),
    ("17.18 GB", 17.18, 2),                   # units
    ("512 ms", 512.0, 0),
    ("-3", -3.0, 0),                          # negative numbers, ASCII and Unicode minus
    ("−0.25", -0.25, 2),
    ("a drop of -12.5 points", -12.5, 1),
    ("+38.9 points", 38.9, 1),
    ("0.50", 0.5, 2),                         # trailing zeros are precision
    (".5", 0.5, 1),
    ("2.0e-5", 2e-5, 6),                      # exponents shift the precision
    ("1e4", 1e4, -4),
    (r"$2.0 \times 10^{-5}$", 2e-5, 6),
    ("to about $10^{-15}$", 1e-15, 15),
    ("10⁻¹⁵", 1e-15, 15),
    ("BLEU-4 of 97.6", 97.6, 1),              # digits inside a word are no number
    ("float32 keeps 7.2 digits", 7.2, 1),
    ("lengths 3-10", 3.0, 0),                 # the first number counts
    ("(3,4)", 3.0, 0),                        # a pair, not three thousand and four
])
def test_number_in(text, number, decimals):
    got = number_in(text)
    assert got is not None
    assert got[0] == pytest.approx(number, rel=1e-12) and got[1] == decimals


@pytest.mark.parametrize("text", ["goes below zero", "never", "the same output", "float32", "BLEU-4"])
def test_number_in_a_verdict_is_none(text):
    assert number_in(text) is None


# --- disagreement -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("709.8", 709.782712893384),
    ("1,713", 1713),
    ("1,713", 1712.6),
    ("96.4%", 96.43),
    ("3.1x", 3.06),
    ("17.18 GB", 17.179869184),
    ("−0.25", -0.2504),
    ("2.0e-5", 2.04e-5),
    ("$10^{-15}$", 1.2e-15),
    ("0.5", 0.55),                            # exactly on the rounding boundary
    ("goes below zero", True),
])
def test_agreeing_text(text, value):
    assert disagreement(text, value) is None


@pytest.mark.parametrize("text, value", [
    ("709.8", 709.7),
    ("1,713", 1714),
    ("1,713", 171.3),
    ("96.4%", 0.964),                         # a fraction where the text shows a percentage
    ("3.1x", 3.2),
    ("17.18 GB", 17.18e9),
    ("−0.25", 0.25),                          # the sign matters
    ("2.0e-5", 3e-5),                         # the exponent does not make the precision coarse
    ("$10^{-15}$", 3e-16),
    ("709.8", float("nan")),
    ("709.8", float("inf")),
    ("never", 3.0),                           # a number claim on a text with no number
])
def test_disagreeing_text(text, value):
    why = disagreement(text, value)
    assert why is not None and repr(text) in why


def test_a_false_verdict_fails():
    assert "False" in disagreement("the curve never goes below zero", False)


def test_changing_a_number_in_a_span_is_reported():
    """The point of the mechanism: edit the number in the text and the claim no longer holds."""
    md = 'Softmax overflows above about <span data-claim="exp_overflow_f64">709.8</span> in float64.'
    value = claim("exp_overflow_f64", 709.782712893384)
    assert problems([md], {"exp_overflow_f64": value}) == []
    for edited in ("709.9", "709.7", "719.8", "70.98", "7,098", "-709.8", "about seven hundred"):
        found = problems([md.replace(">709.8<", f">{edited}<")], {"exp_overflow_f64": value})
        assert len(found) == 1 and "exp_overflow_f64" in found[0] and edited in found[0], (edited, found)
    for rounded in ("709.78", "710", "709.783"):  # another rounding of the same value still agrees
        assert problems([md.replace(">709.8<", f">{rounded}<")], {"exp_overflow_f64": value}) == []


# --- claim ------------------------------------------------------------------------------------

def test_claim_records_numbers_and_verdicts(tmp_path, monkeypatch):
    import numpy as np
    import torch

    path = tmp_path / "claims.jsonl"
    monkeypatch.setenv(claims.ENV, str(path))
    assert claim("a_number", np.float32(1.5)) == 1.5
    assert claim("a_verdict", np.bool_(True)) is True
    assert claim("a_tensor", torch.tensor(2)) == 2.0
    assert claim("a_number", 2.5) == 2.5      # recorded again: the last value counts
    assert read_recorded(path) == {"a_number": 2.5, "a_verdict": True, "a_tensor": 2.0}
    assert [json.loads(line)["name"] for line in path.read_text().splitlines()] == \
        ["a_number", "a_verdict", "a_tensor", "a_number"]
    assert read_recorded(tmp_path / "missing.jsonl") == {}


@pytest.mark.parametrize("name, value", [
    ("Bad-Name", 1.0), ("1st", 1.0), ("ok", "3.1"), ("ok", [1.0, 2.0]), ("ok", None),
])
def test_claim_rejects_bad_names_and_values(name, value):
    with pytest.raises(ValueError):
        claim(name, value)


def test_claim_without_the_environment_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(claims.ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    claim("quiet", 1.0)
    assert list(tmp_path.iterdir()) == []


# --- problems: the notebook-level verdict -------------------------------------------------------

MARKDOWN = ['Overflow above about <span data-claim="overflow">709.8</span>.',
            'The curve <span data-claim="never_negative">never goes below zero</span>.']


def test_problems_passes_a_true_text():
    assert problems(MARKDOWN, {"overflow": 709.78, "never_negative": True}) == []


def test_problems_with_no_spans_and_no_claims_passes():
    assert problems(["# A notebook with no claims yet"], {}) == []


def test_problems_span_without_claim():
    found = problems(MARKDOWN, {"overflow": 709.78})
    assert len(found) == 1 and "never_negative" in found[0] and "no cell computed it" in found[0]


def test_problems_claim_without_span():
    found = problems(MARKDOWN, {"overflow": 709.78, "never_negative": True, "orphan": 3.0})
    assert len(found) == 1 and "orphan" in found[0] and "no markdown span" in found[0]


def test_problems_false_verdict_and_wrong_number():
    found = problems(MARKDOWN, {"overflow": 42.0, "never_negative": False})
    assert len(found) == 2 and "overflow" in found[0] and "False" in found[1]


def test_problems_same_claim_stated_twice_is_checked_twice():
    md = MARKDOWN + ['Again: <span data-claim="overflow">710.3</span>.']
    found = problems(md, {"overflow": 709.78, "never_negative": True})
    assert len(found) == 1 and "710.3" in found[0]


def test_problems_bad_span_name():
    found = problems(['<span data-claim="Not-A-Name">3</span>'], {})
    assert len(found) == 1 and "lower_case_with_underscores" in found[0]


# --- the notebooks ------------------------------------------------------------------------------

@pytest.mark.parametrize("assignment", ck.assignments())
def test_notebook_spans_are_well_formed(assignment):
    """Cheap, before any execution: every span of a solution notebook names a valid claim and
    wraps some text (whether the claims hold is judged where the notebook runs, see above)."""
    source = ck.load(ck.solution_path(assignment))
    found = [pair for c in source["cells"] if c["cell_type"] == "markdown" for pair in spans(c["source"])]
    for name, text in found:
        assert claims._NAME.match(name), f"{name!r}: a claim name is lower_case_with_underscores"
        assert text, f"span {name!r} wraps no text"


@pytest.mark.notebooks
def test_claims_are_recorded_from_a_kernel(tmp_path, monkeypatch):
    """The path the notebook test takes, on a two-cell notebook: the kernel inherits
    ATTNLAB_CLAIMS_FILE, ``claim`` appends to it, and ``problems`` judges the text against it."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell('exp overflows above <span data-claim="overflow">709.8</span>.'),
        nbformat.v4.new_code_cell("import numpy as np\nfrom attnlab.claims import claim\n"
                                  "claim('overflow', np.log(np.finfo(np.float64).max))"),
    ])
    path = tmp_path / "claims.jsonl"
    monkeypatch.setenv(claims.ENV, str(path))
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert problems(markdown, read_recorded(path)) == []
    markdown = [m.replace("709.8", "709.9") for m in markdown]
    assert len(problems(markdown, read_recorded(path))) == 1


def test_a_spread_given_in_the_span_is_the_spread_allowed():
    """A figure that moves with the CPU (a training run) gives its spread: ``data-within``."""
    from attnlab.claims import problems

    text = 'about <span data-claim="acc" data-within="4">46%</span>'
    assert problems([text], {"acc": 42.5}) == []
    assert problems([text], {"acc": 50.0}) == []
    assert "give or take 4" in problems([text], {"acc": 50.5})[0]
    assert problems(['<span data-claim="acc">46%</span>'], {"acc": 45.0})  # no spread: rounding only
    assert "positive number" in problems(['<span data-claim="acc" data-within="x">46%</span>'], {"acc": 46.0})[0]


# Every notebook whose code reads NBGRADER_EXECUTION (a smaller configuration while nbgrader
# autogrades) is run in that mode too: the autograded notebook, with its outputs, goes back to the
# learner as feedback, so there too no span may be contradicted by what the notebook printed. A
# notebook that does not read it runs the same in both modes (tested by test_notebooks).
def _reads_grading_mode(assignment: str) -> bool:
    nb = ck.load(ck.solution_path(assignment))
    return any(cell["cell_type"] == "code" and re.search(r"[\"']NBGRADER_EXECUTION[\"']", cell["source"])
               for cell in nb["cells"])


GRADING_MODE_TRUE = [a for a in ck.assignments() if _reads_grading_mode(a)]


def test_the_grading_mode_list_is_found():
    """The list above is read from the notebooks: it finds the ones known to read the variable."""
    assert {"03_self_attention", "08_efficient_attention", "12_what_attention_learns",
            "13_attention_variants"} <= set(GRADING_MODE_TRUE)
    assert "01_weighted_averages" not in GRADING_MODE_TRUE


@pytest.mark.notebooks
@pytest.mark.parametrize("assignment", GRADING_MODE_TRUE)
def test_claims_hold_in_grading_mode(assignment, tmp_path, monkeypatch):
    """The solution notebook run as nbgrader runs it while autograding (``NBGRADER_EXECUTION=1``):
    no cell fails (the grade cells pass), every span's claim is computed in this mode too (no
    ``if not FAST`` around a claim whose text is shown) and agrees with its text (about 20 s for
    notebook 12 on an idle 2-core machine)."""
    import shutil

    path = ck.solution_path(assignment)
    nb = nbformat.read(path, as_version=4)
    work = tmp_path / assignment
    shutil.copytree(path.parent, work)
    claims_file = tmp_path / "claims.jsonl"
    monkeypatch.setenv("NBGRADER_EXECUTION", "1")  # the kernel inherits this environment
    monkeypatch.setenv(claims.ENV, str(claims_file))
    NotebookClient(nb, timeout=1800, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    found = problems((c.source for c in nb.cells if c.cell_type == "markdown"), read_recorded(claims_file))
    assert not found, f"{assignment} in grading mode: the text and its claims disagree:\n" + "\n".join(found)
