"""No docstring a learner can ``help()`` gives an exercise's implementation away: the references
of every exercise (numpy in ``attnlab``, torch twins in ``attnlab.torch``) describe what they
compute: none of them contains a line of the exercise's solution, nor a chain of array methods
such as ``X.view(B, L, H, Dh).transpose(1, 2)`` (an implementation in one line)."""
from __future__ import annotations

import inspect
import re

import pytest

import attnlab
import attnlab.torch as at
import coursekit as ck


def _code_lines(source: str) -> list[str]:
    """The solution's statements between the markers, comments removed, whitespace squeezed."""
    body = source.split("### BEGIN SOLUTION", 1)[-1].split("### END SOLUTION", 1)[0]
    lines = []
    for line in body.splitlines():
        code = re.sub(r"\s+", "", line.split("#", 1)[0])
        if len(code) >= 16 and not code.startswith(("return", "def", "class", "self.", "super(")):
            lines.append(code)
        elif code.startswith("return") and len(code) >= 22:
            lines.append(code[len("return"):])
    return lines


def _cases():
    for assignment in ck.assignments():
        nb = ck.load(ck.solution_path(assignment))
        for gid, cell in ck.exercises(nb).items():
            names = re.findall(r"^(?:def|class) (\w+)", cell["source"], flags=re.M)
            for name in names:
                for module in (attnlab, at):
                    ref = getattr(module, name, None)
                    if ref is not None:
                        yield pytest.param(ref, _code_lines(cell["source"]),
                                           id=f"{assignment[:2]}:{module.__name__}.{name}")


@pytest.mark.parametrize("reference,solution_lines", list(_cases()))
def test_reference_docstring_does_not_hold_the_solution(reference, solution_lines):
    docs = [inspect.getdoc(reference) or ""]
    if inspect.isclass(reference):
        docs += [inspect.getdoc(m) or "" for _, m in inspect.getmembers(reference, inspect.isfunction)]
    text = re.sub(r"\s+", "", "\n".join(docs)).replace("``", "")
    leaked = [line for line in solution_lines if line in text]
    assert not leaked, f"help({reference.__name__}) shows the solution line(s) {leaked}"
    chains = CHAIN.findall("\n".join(docs))
    assert not chains, f"help({reference.__name__}) shows an implementation: {chains}"


# two array methods chained, e.g. ``X.reshape(B, L, H, Dh).transpose(0, 2, 1, 3)``
CHAIN = re.compile(r"\w+\.(?:view|reshape|transpose|permute|swapaxes|unsqueeze|squeeze|sum|masked_fill)"
                   r"\([^()]*\)\.\w+\(")
