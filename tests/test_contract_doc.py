"""The course contract (``docs/contract.md``) against the code: every exercise (every card in
``src/attnlab/cards/``) has a row under its notebook, with the signature its solution notebook
defines, and every row is an exercise. A renamed exercise, an argument added, dropped or renamed,
a changed default, or a new notebook fails here until the contract says the same.

Signatures are read from the solution cell (``card.solution``) with ``ast``, never by running
it: a function as ``name(a, b=1)``; a class as its constructor ``Name(a, b=1)`` followed by each
public method the cell defines (``forward(X, mask=None)``, ``step(...)``), ``self`` left out. A
prediction's row gives its kind (``a number``, ``a choice: "x", "y"``, ``a shape``, ``indices``).
The arguments the checks pass (``card.contract.args``) must be arguments of that signature.
"""
from __future__ import annotations

import ast
import re

import pytest

import coursekit as ck
from attnlab.cards import all_cards

CONTRACT = ck.ROOT / "docs" / "contract.md"
CARDS = all_cards()
KINDS = {"number": "a number", "choice": "a choice", "shape": "a shape", "indices": "indices"}
CODE = re.compile(r"`([^`]+)`")


def contract_rows(text: str) -> dict[str, tuple[str, str]]:
    """``{exercise: (notebook, signature cell)}`` from the tables under "## The exercises",
    one ``### <notebook>`` heading per notebook."""
    _, found, rest = text.partition("\n## The exercises\n")
    assert found, 'docs/contract.md has no "## The exercises" section'
    section = re.split(r"\n## ", rest, maxsplit=1)[0]
    rows: dict[str, tuple[str, str]] = {}
    notebook = None
    for line in section.splitlines():
        if line.startswith("### "):
            notebook = line[4:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) < 2 or not re.fullmatch(r"`\w+`", cells[0]):
            continue
        name = cells[0].strip("`")
        assert name not in rows, f"docs/contract.md lists {name} twice"
        rows[name] = (notebook, cells[1])
    return rows


def _params(fn: ast.FunctionDef, method: bool) -> str:
    a = fn.args
    positional = a.posonlyargs + a.args
    if method and positional and positional[0].arg in ("self", "cls"):
        positional = positional[1:]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    if method and len(defaults) > len(positional):
        defaults = defaults[len(defaults) - len(positional):]
    out = [p.arg + ("" if d is None else "=" + ast.unparse(d)) for p, d in zip(positional, defaults)]
    if a.vararg:
        out.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        out.append("*")
    out += [p.arg + ("" if d is None else "=" + ast.unparse(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    return ", ".join(out)


def defined_signature(card) -> tuple[list[str], set[str], bool]:
    """(the signatures as the contract writes them, every argument name, is it a class) of the
    exercise as its solution cell defines it."""
    nb = ck.load(ck.solution_path(card.notebook))
    source = "".join(ck.solution_cells(nb)[card.solution]["source"])
    tree = ast.parse(source)
    node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                 and n.name == card.exercise), None)
    assert node is not None, f"{card.notebook}: the solution cell {card.solution!r} defines no {card.exercise}"
    if isinstance(node, ast.FunctionDef):
        return [f"{node.name}({_params(node, False)})"], {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}, False
    methods = [m for m in node.body if isinstance(m, ast.FunctionDef)]
    init = next((m for m in methods if m.name == "__init__"), None)
    sigs = [f"{node.name}({_params(init, True) if init else ''})"]
    sigs += [f"{m.name}({_params(m, True)})" for m in methods if not m.name.startswith("_")]
    names = {a.arg for m in methods for a in ast.walk(m.args) if isinstance(a, ast.arg)} - {"self"}
    return sigs, names, True


def test_every_exercise_has_a_row_and_every_row_is_an_exercise():
    rows = contract_rows(CONTRACT.read_text(encoding="utf-8"))
    cards = {c.exercise: c for c in CARDS}
    missing = [f"{c.notebook}: {name}" for name, c in cards.items() if name not in rows]
    stale = [f"{nb}: {name}" for name, (nb, _) in rows.items() if name not in cards]
    assert not missing, "exercises docs/contract.md does not list:\n" + "\n".join(missing)
    assert not stale, "rows of docs/contract.md that are no exercise (renamed? removed?):\n" + "\n".join(stale)
    wrong_notebook = [f"{name}: listed under {rows[name][0]}, its notebook is {c.notebook}"
                      for name, c in cards.items() if rows[name][0] != c.notebook]
    assert not wrong_notebook, "\n".join(wrong_notebook)
    assert {nb for nb, _ in rows.values()} == set(ck.assignments()), "one ### section per notebook of solutions/"


@pytest.mark.parametrize("card", CARDS, ids=[c.exercise for c in CARDS])
def test_the_contract_gives_the_exercise_its_signature(card):
    rows = contract_rows(CONTRACT.read_text(encoding="utf-8"))
    if card.exercise not in rows:
        pytest.fail(f"docs/contract.md has no row for {card.exercise} ({card.notebook})")
    cell = rows[card.exercise][1]
    if card.prediction is not None:
        kind = card.prediction.kind
        assert cell.startswith(KINDS[kind]), f"{card.exercise} is {KINDS[kind]}; docs/contract.md says {cell!r}"
        if kind == "choice":
            listed = CODE.findall(cell)
            assert listed == [f'"{o}"' for o in card.prediction.options], \
                f"{card.exercise}: the options are {card.prediction.options}; docs/contract.md lists {listed}"
        return
    expected, names, is_class = defined_signature(card)
    written = CODE.findall(cell)
    assert written == expected, (f"{card.exercise}: solutions/{card.notebook} defines {expected}; "
                                 f"docs/contract.md says {written}")
    # What the checks pass must be arguments of the signature (a class's checks may also pass the
    # instance first and attribute paths such as ``W_q.weight.T``).
    args = list(card.contract.args)
    if is_class and args and args[0] not in names:
        args = args[1:]
    unknown = [a for a in args if a.isidentifier() and a not in names]
    assert not unknown, f"{card.exercise}: the checks pass {unknown}, which {expected} does not take"


def test_the_test_reads_the_contract_as_written():
    """A row the parser misses would pass unnoticed: the tables must give every exercise."""
    text = ("# x\n\n## The exercises\n\n### 01_a\n\n| exercise | signature |\n|---|---|\n"
            "| `f` | `f(x, axis=-1)` |\n| `prediction_p` | a choice: `\"a\"`, `\"b\"` |\n\n## Next\n\n| `g` | `g()` |\n")
    assert contract_rows(text) == {"f": ("01_a", "`f(x, axis=-1)`"), "prediction_p": ("01_a", 'a choice: `"a"`, `"b"`')}
