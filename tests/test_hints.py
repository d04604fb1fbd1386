"""Hints give the idea and the plan, not the solution's code (docs/contract.md, "What a graded
exercise looks like"; CONTRIBUTING, "The shape of an exercise").

For every exercise of every solution notebook this measures how many lines of the solution's
code its hints contain, and fails above one. The definitions:

* an exercise's **hints** are the ``<details>`` blocks (all tiers together) of the markdown that
  prompts it: the markdown cells since the last code cell that is not an exercise (two exercises
  that share one prompt, as 05's ``split_heads`` and ``merge_heads``, share its hints), read as
  the learner sees them (HTML entities and Markdown backslash escapes undone);
* a **solution line** is a line between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (every
  such block of the exercise's cell: a class has one per method) that is
  neither blank nor a comment, with its trailing comment removed, and at least 12 characters long
  once its whitespace is removed (shorter lines, such as ``return out`` or ``h = x @ W``, say
  nothing a learner could not write alone);
* a line **appears** in the hints when its text with all whitespace removed is a substring of the
  hints' text with all whitespace removed (so re-spacing or re-wrapping a line does not hide it).
"""
from __future__ import annotations

import html
import io
import re
import tokenize

import pytest

import coursekit as ck

ASSIGNMENTS = ck.assignments()
MIN_LINE_CHARS = 12
MAX_LINES_IN_HINTS = 1
DETAILS = re.compile(r"<details\b.*?</details\s*>", re.S | re.I)
MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
WHITESPACE = re.compile(r"\s+")
SOLUTION_BLOCK = re.compile(r"### BEGIN SOLUTION[^\n]*\n(.*?)### END SOLUTION", re.S)


def squeeze(text: str) -> str:
    return WHITESPACE.sub("", text)


def solution_lines(source: str) -> list[str]:
    """The solution's lines that count (see the module docstring), as written, comments removed."""
    lines = source.splitlines()
    try:  # comments found by token in the whole cell, so that a '#' inside a string stays
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and not tok.string.startswith("### "):  # keep the markers
                row, col = tok.start
                lines[row - 1] = lines[row - 1][:col]
    except (tokenize.TokenError, IndentationError, SyntaxError):  # not Python: a comment is "  # ..."
        lines = [re.sub(r"(^|\s)#(?!## ).*$", "", line) for line in lines]
    bodies = SOLUTION_BLOCK.findall("\n".join(lines))  # a class or a cell of two functions has several
    return [line.strip() for body in bodies for line in body.splitlines() if len(squeeze(line)) >= MIN_LINE_CHARS]


def hints_text(markdown: str) -> str:
    """What the learner reads in the ``<details>`` blocks of ``markdown``."""
    blocks = "\n".join(DETAILS.findall(markdown))
    return MD_ESCAPE.sub(r"\1", html.unescape(blocks))


def lines_in_hints(lines: list[str], hints: str) -> list[str]:
    """The solution lines whose whitespace-free text is a substring of the hints'."""
    flat = squeeze(hints)
    return [line for line in lines if squeeze(line) in flat]


def prompts(nb: dict) -> dict[str, str]:
    """``{exercise grade_id: the markdown that prompts it}`` (as test_notebook_structure reads it)."""
    cells = nb["cells"]
    exercises = ck.exercises(nb)
    out = {}
    for index, cell in enumerate(cells):
        gid = ck.nbg(cell).get("grade_id", "")
        if cell["cell_type"] != "code" or gid not in exercises:
            continue
        prompt = ""
        for before in reversed(cells[:index]):
            if before["cell_type"] == "code":
                if ck.nbg(before).get("grade_id") in exercises:
                    continue  # exercises that share one prompt
                break
            prompt = before["source"] + "\n" + prompt
        out[gid] = prompt
    return out


def leaks(nb: dict) -> dict[str, list[str]]:
    """``{exercise: the solution lines its hints contain}`` for every exercise of ``nb``."""
    exercises = ck.exercises(nb)
    return {gid: lines_in_hints(solution_lines(exercises[gid]["source"]), hints_text(prompt))
            for gid, prompt in prompts(nb).items()}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_hints_do_not_paste_the_solution(assignment):
    """At most one line of an exercise's solution may appear in its hints, all tiers together.

    Why one: the third tier is "code-level detail", and sometimes the detail *is* one line, the
    idiom the exercise is about (05's ``reshape(B, L, H, Dh).transpose(0, 2, 1, 3)``, 01's
    ``keepdims=True`` reduction), which a learner cannot guess and would otherwise copy from the
    solution with everything around it. Two lines start to be the solution itself: the learner
    pastes them and has written nothing, and most exercises here are three to eight lines long.
    """
    nb = ck.load(ck.solution_path(assignment))
    over = {gid: lines for gid, lines in leaks(nb).items() if len(lines) > MAX_LINES_IN_HINTS}
    assert not over, "hints that contain more than one line of the solution:\n" + "\n".join(
        f"  {gid}: " + " | ".join(lines) for gid, lines in over.items())


# --- the measure itself -------------------------------------------------------------------------

SOLUTION = '''def softmax(x, axis=-1):
    """Stable softmax."""
    ### BEGIN SOLUTION
    x = np.asarray(x, dtype=float)
    # subtract the maximum of each slice
    shifted = x - np.max(x, axis=axis, keepdims=True)  # every exponent <= 0
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)
    ### END SOLUTION
'''


def _notebook(prompt: str, solution: str = SOLUTION) -> dict:
    return {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": prompt},
        {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "softmax", "solution": True}},
         "source": solution, "outputs": [], "execution_count": None},
    ]}


def test_solution_lines_drop_comments_blanks_and_short_lines():
    assert solution_lines(SOLUTION) == ["x = np.asarray(x, dtype=float)",
                                        "shifted = x - np.max(x, axis=axis, keepdims=True)",
                                        "e = np.exp(shifted)",
                                        "return e / np.sum(e, axis=axis, keepdims=True)"]
    # "e=exp(s)" is 8 characters without whitespace: too short to count
    assert "e = exp(s)" not in solution_lines(SOLUTION.replace("np.exp(shifted)", "exp(s)"))


def test_the_measure_fails_a_hint_that_pastes_two_lines():
    """A constructed exercise whose third tier pastes two solution lines (re-spaced and
    HTML-escaped, as a careless edit would) fails; one line, or the idea in words, passes."""
    two = """### Exercise: softmax
<details><summary>Hint 1: the idea</summary>

Shift each slice by its maximum.
</details>
<details><summary>Hint 3: code-level detail</summary>

    shifted = x - np.max(x, axis=axis,
                         keepdims=True)
    return e / np.sum(e, axis=axis, keepdims=True)
</details>
"""
    found = leaks(_notebook(two))["softmax"]
    assert len(found) == 2 > MAX_LINES_IN_HINTS
    one = two.replace("    return e / np.sum(e, axis=axis, keepdims=True)\n", "")
    assert len(leaks(_notebook(one))["softmax"]) == 1
    words = "<details><summary>Hint 3</summary>\n\n`np.max` takes `axis=` and `keepdims=True`.\n</details>"
    assert leaks(_notebook(words))["softmax"] == []
    escaped = two.replace("return e / np.sum", "return e &#47; np.sum")
    assert len(leaks(_notebook(escaped))["softmax"]) == 2


def test_only_the_details_blocks_count():
    """The measure reads the hints, not the prompt's prose around them."""
    prompt = ("Compute `shifted = x - np.max(x, axis=axis, keepdims=True)` and "
              "`return e / np.sum(e, axis=axis, keepdims=True)`.\n"
              "<details><summary>Hint 1: the idea</summary>\n\nShift invariance.\n</details>")
    assert leaks(_notebook(prompt))["softmax"] == []


def test_every_solution_block_of_a_cell_counts():
    """A class exercise has one block per method; all of them are the solution."""
    cell = '''class M(nn.Module):
    def __init__(self, d):
        super().__init__()
        ### BEGIN SOLUTION
        self.proj = nn.Linear(d, d)  # (D, D)
        ### END SOLUTION

    def forward(self, x):
        ### BEGIN SOLUTION
        return torch.softmax(self.proj(x), dim=-1)
        ### END SOLUTION
'''
    assert solution_lines(cell) == ["self.proj = nn.Linear(d, d)", "return torch.softmax(self.proj(x), dim=-1)"]
