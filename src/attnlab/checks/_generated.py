"""Mistakes generated from the reference, by rule (issue 39): the single and paired edits a
learner makes to the right code.

The reference's source is parsed and every site of a kind learners get wrong is edited once:

* an axis (``axis=``/``dim=``) changed, ``keepdims=True`` dropped, a transpose dropped or
  written as ``.T`` (which reverses every axis of a batch);
* a scale: ``√d`` replaced by ``d`` or left out, a constant factor left out;
* a term of a sum left out, a difference's sign flipped;
* a comparison made strict or not, a mask inverted (``~`` dropped, ``where``'s branches swapped);
* an integer bound (a slice, an offset such as ``triu``'s ``k``, a ``range``) moved by one;
* two arguments swapped, a sum made a mean, an exponential left out, the returned pair in the
  other order.

At check time (:meth:`CheckSpec.verdict`), when no catalogued mistake gives the learner's
answer, an edit (or a pair of edits) that gives it on the failing input and is the learner's code
on every other input the check has (right where the learner is right, the same answer where the
learner is wrong) names the mistake, in the exercise's words: the operation, the argument names
and the constants of the edit. One input alone never names an edit. The catalogue's names come
first, so a hand-written name stays where the generated one would be vaguer.
"""
from __future__ import annotations

import ast
import copy
import inspect
import itertools
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from ._core import Mistake

MAX_SINGLE = 80      # edits of one reference (the first sites in the code)
MAX_PAIRED = 24      # the first singles that are paired with each other
_AXES = (-1, -2, 0, 1)


@dataclass(frozen=True)
class _Edit:
    index: int                                  # the node's position in a preorder walk
    apply: Callable[[ast.AST, "_Tree"], None]   # edits that node of a fresh copy
    name: str
    principle: str
    fix: str


class _Tree:
    """A copy of the reference's function, with each node's parent (so a node can be replaced)."""

    def __init__(self, fdef: ast.FunctionDef) -> None:
        self.root = copy.deepcopy(fdef)
        self.nodes = _preorder(self.root)
        self.parent: dict[int, tuple[ast.AST, str, int | None]] = {}
        for node in self.nodes:
            for field, value in ast.iter_fields(node):
                if isinstance(value, list):
                    for i, child in enumerate(value):
                        if isinstance(child, ast.AST):
                            self.parent[id(child)] = (node, field, i)
                elif isinstance(value, ast.AST):
                    self.parent[id(value)] = (node, field, None)

    def replace(self, node: ast.AST, new: ast.AST) -> None:
        parent, field, i = self.parent[id(node)]
        if i is None:
            setattr(parent, field, new)
        else:
            getattr(parent, field)[i] = new
        self.parent[id(new)] = (parent, field, i)


def _preorder(node: ast.AST) -> list[ast.AST]:
    out = [node]
    for child in ast.iter_child_nodes(node):
        out.extend(_preorder(child))
    return out


def _src(node: ast.AST, limit: int = 28) -> str | None:
    text = ast.unparse(node)
    return text if len(text) <= limit else None


def _op_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "the call"


def _is_call_to(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Call) and _op_name(node) in names


def _const_int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, int) and not isinstance(node.operand.value, bool)):
        return -node.operand.value
    return None


def _num(value: int) -> ast.AST:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def _axis_words(node: ast.AST, params: set[str]) -> str:
    if isinstance(node, ast.Name) and node.id in params:
        return f"the `{node.id}` argument"
    value = _const_int(node)
    if value is not None:
        return {-1: "the last axis (-1)", -2: "axis -2"}.get(value, f"axis {value}")
    return f"axis `{_src(node) or '...'}`"


# ---------------------------------------------------------------------------------------------
# The rules: each yields the edits of one node

def _set_kw(call_index: int, kw: str, value: ast.AST | None) -> Callable[[ast.AST, _Tree], None]:
    def apply(node: ast.AST, tree: _Tree) -> None:
        node.keywords = [k for k in node.keywords if k.arg != kw]
        if value is not None:
            node.keywords.append(ast.keyword(arg=kw, value=copy.deepcopy(value)))
    return apply


def _replace_with(make: Callable[[ast.AST], ast.AST]) -> Callable[[ast.AST, _Tree], None]:
    def apply(node: ast.AST, tree: _Tree) -> None:
        tree.replace(node, make(node))
    return apply


def _edits_of(i: int, node: ast.AST, params: set[str]) -> Iterator[_Edit]:
    if isinstance(node, ast.Call):
        yield from _call_edits(i, node, params)
    elif isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        yield _Edit(i, _replace_with(lambda n: n.value),
                    f"a transpose left out (`{_src(node.value) or 'the matrix'}` where its transpose belongs)",
                    "Check which axes each product contracts: one operand must be transposed so that "
                    "the shared axis lines up.",
                    f"transpose `{_src(node.value) or 'that operand'}` as the product needs.")
    elif isinstance(node, ast.BinOp):
        yield from _binop_edits(i, node)
    elif isinstance(node, ast.Compare) and len(node.ops) == 1:
        flips = {ast.Lt: (ast.LtE, "<", "<="), ast.LtE: (ast.Lt, "<=", "<"),
                 ast.Gt: (ast.GtE, ">", ">="), ast.GtE: (ast.Gt, ">=", ">")}
        flip = flips.get(type(node.ops[0]))
        if flip is not None:
            new, old_s, new_s = flip

            def apply(n: ast.AST, tree: _Tree, new=new) -> None:
                n.ops = [new()]
            yield _Edit(i, apply, f"a comparison `{new_s}` where `{old_s}` belongs (the bound itself "
                                  f"{'included' if '=' in new_s else 'left out'})",
                        "Check whether the boundary value itself belongs to the set the comparison selects.",
                        f"compare with `{old_s}`, not `{new_s}`.")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        yield _Edit(i, _replace_with(lambda n: n.operand), "the mask inverted (`~` left out)",
                    "Check which entries the mask keeps: True marks what may be attended to.",
                    "negate the mask as the exercise's convention asks.")
    elif isinstance(node, ast.Slice):
        for field, role in (("lower", "start"), ("upper", "end")):
            bound = getattr(node, field)
            if bound is None:
                continue
            for delta in (1, -1):
                def apply(n: ast.AST, tree: _Tree, field=field, delta=delta) -> None:
                    b = getattr(n, field)
                    value = _const_int(b)
                    setattr(n, field, _num(value + delta) if value is not None
                            else ast.BinOp(b, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(1)))
                value = _const_int(bound)
                was = f"{value}" if value is not None else f"`{_src(bound) or role}`"
                now = (f"{value + delta}" if value is not None
                       else f"`{_src(bound) or role} {'+' if delta > 0 else '-'} 1`")
                yield _Edit(i, apply, f"an off-by-one slice: its {role} at {now} where {was} belongs",
                            "Count the positions a slice covers: its start is included, its end is not.",
                            f"use `{_src(bound) or 'the bound'}` as the slice's {role}.")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _const_int(node) is None:
        yield _Edit(i, _replace_with(lambda n: n.operand),
                    f"a minus sign left out (`{_src(node.operand)}` where `-{_src(node.operand)}` belongs)"
                    if _src(node.operand) else "a minus sign left out",
                    "Check the sign of every term of the equation.", "keep the minus sign.")
    elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
        def apply(n: ast.AST, tree: _Tree) -> None:
            n.value.elts = n.value.elts[::-1]
        yield _Edit(i, apply, "the two returned items in the other order",
                    "The contract fixes the order of the returned items.",
                    "return the items in the order the docstring gives.")


def _call_edits(i: int, node: ast.Call, params: set[str]) -> Iterator[_Edit]:
    op = _op_name(node)
    kws = {k.arg: k.value for k in node.keywords if k.arg}
    for kw in ("axis", "dim"):
        if kw in kws:
            old = kws[kw]
            old_int = _const_int(old)
            words = _axis_words(old, params)
            for new in _AXES:
                if new == old_int or (old_int is None and new == -1 and isinstance(old, ast.Name)):
                    continue
                yield _Edit(i, _set_kw(i, kw, _num(new)),
                            f"`{op}` over {_axis_words(ast.Constant(new) if new >= 0 else _num(new), params)} "
                            f"instead of {words}",
                            f"Check the axis `{op}` runs along: the exercise's equation says which index it "
                            "runs over.",
                            f"run `{op}` along {words}.")
    if isinstance(kws.get("keepdims"), ast.Constant) and kws["keepdims"].value is True:
        yield _Edit(i, _set_kw(i, "keepdims", None),
                    f"`{op}` without `keepdims=True` (the reduced axis is dropped, so the result "
                    "broadcasts against the wrong axis)",
                    "A reduction that is divided into (or subtracted from) its own input must keep the "
                    "reduced axis, with size 1, so that it lines up.",
                    f"pass `keepdims=True` to `{op}`.")
    if op in ("swapaxes", "transpose", "permute") or (op == "moveaxis"):
        target = node.args[0] if isinstance(node.func, ast.Name) or (
            isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("np", "torch")) else node.func.value
        if node.args or isinstance(node.func, ast.Attribute):
            yield _Edit(i, _replace_with(lambda n, t=target: copy.deepcopy(t)),
                        f"a transpose left out (`{_src(target) or 'the operand'}` where its transpose belongs)",
                        "Check which axes each product contracts: one operand must be transposed so "
                        "that the shared axis lines up.",
                        f"transpose `{_src(target) or 'that operand'}` as the product needs.")
            if op == "swapaxes":
                yield _Edit(i, _replace_with(lambda n, t=target: ast.Attribute(copy.deepcopy(t), "T", ast.Load())),
                            "`.T` on a batch: it reverses every axis, not only the last two",
                            "Transpose only the last two axes, so that leading batch axes stay where they are.",
                            "swap only the last two axes (`np.swapaxes(x, -1, -2)`).")
    if op == "sqrt" and len(node.args) == 1:
        inner = _src(node.args[0])
        yield _Edit(i, _replace_with(lambda n: n.args[0]),
                    f"{inner or 'the size'} where its square root belongs" + (f" (√{inner})" if inner else ""),
                    "The scale is a square root of the width, not the width itself.",
                    f"take the square root: `np.sqrt({inner or '...'})`.")
    if op in ("sin", "cos") and len(node.args) == 1:
        other = "cos" if op == "sin" else "sin"

        def apply(n: ast.AST, tree: _Tree, other=other) -> None:
            if isinstance(n.func, ast.Attribute):
                n.func.attr = other
            else:
                n.func.id = other
        yield _Edit(i, apply, f"`{other}` where `{op}` belongs (sin and cos swapped)",
                    "Check which of the pair gets the sine and which the cosine.",
                    f"use `{op}` there.")
    if op == "arange" and len(node.args) == 1:
        def apply(n: ast.AST, tree: _Tree) -> None:
            a = n.args[0]
            n.args = [ast.Constant(1), ast.BinOp(a, ast.Add(), ast.Constant(1))]
        yield _Edit(i, apply, "positions counted from 1 instead of 0",
                    "Positions (and indices) start at 0.", "count from 0: `np.arange(n)`.")
    if op in ("exp",) and len(node.args) == 1:
        yield _Edit(i, _replace_with(lambda n: n.args[0]), "no exponential",
                    "Scores become positive weights through the exponential.",
                    "exponentiate before normalising.")
    if op == "sum":
        def apply(n: ast.AST, tree: _Tree) -> None:
            if isinstance(n.func, ast.Attribute):
                n.func.attr = "mean"
            else:
                n.func.id = "mean"
        yield _Edit(i, apply, "a mean where a sum belongs (divided by the number of terms)",
                    "The equation adds the terms up; it does not average them.",
                    "sum the terms: `.sum(...)`, not `.mean(...)`.")
    if op == "where" and len(node.args) == 3:
        def apply(n: ast.AST, tree: _Tree) -> None:
            n.args = [n.args[0], n.args[2], n.args[1]]
        yield _Edit(i, apply, "the two branches of `where` swapped (the mask read the other way round)",
                    "Check which entries the mask keeps: True marks what may be attended to.",
                    "put the value for True entries second, the value for False entries third.")
    if op in ("triu", "tril") or "k" in kws or "diagonal" in kws or "offset" in kws:
        for kw in ("k", "diagonal", "offset"):
            value = _const_int(kws[kw]) if kw in kws else None
            if value is None:
                continue
            for delta in (1, -1):
                yield _Edit(i, _set_kw(i, kw, _num(value + delta)),
                            f"an off-by-one offset: `{op}` with `{kw}={value + delta}` where `{kw}={value}` belongs",
                            "Count which diagonal the offset starts from: 0 is the main diagonal itself.",
                            f"use `{kw}={value}`.")
    if op == "range":
        for j, arg in enumerate(node.args):
            for delta in (1, -1):
                def apply(n: ast.AST, tree: _Tree, j=j, delta=delta) -> None:
                    n.args[j] = ast.BinOp(n.args[j], ast.Add() if delta > 0 else ast.Sub(), ast.Constant(1))
                yield _Edit(i, apply, f"an off-by-one loop bound (`{_src(arg) or 'the bound'}"
                                      f"{' + 1' if delta > 0 else ' - 1'}`)",
                            "Count the steps a loop takes: `range(a, b)` stops before b.",
                            f"use `{_src(arg) or 'the bound'}` as the bound.")
    for j in range(len(node.args) - 1):  # two neighbouring names passed in the other order
        a, b = node.args[j], node.args[j + 1]
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)) or a.id == b.id:
            continue
        if j > 0 and not (a.id in params and b.id in params) and op not in ("reshape", "view", "zeros", "ones", "empty"):
            # (beyond the first pair: sizes such as H, W unpacked from a shape, or two parameters)
            if not (len(a.id) <= 2 and len(b.id) <= 2):
                continue
        if j == 0 and not (a.id in params and b.id in params) and not (len(a.id) <= 2 and len(b.id) <= 2):
            continue

        def apply(n: ast.AST, tree: _Tree, j=j) -> None:
            n.args = [*n.args[:j], n.args[j + 1], n.args[j], *n.args[j + 2:]]
        yield _Edit(i, apply, f"`{a.id}` and `{b.id}` swapped in `{op}`",
                    "Check which argument plays which role in the call.",
                    f"pass `{a.id}` before `{b.id}`.")
    if len(node.args) == 1 and isinstance(node.args[0], ast.Call) and len(node.args[0].args) == 1 \
            and not node.keywords and not node.args[0].keywords:
        inner = node.args[0]
        outer_name, inner_name = op, _op_name(inner)
        if outer_name != inner_name:
            yield _Edit(i, _swap_nested, f"`{inner_name}` and `{outer_name}` applied in the other order "
                                         f"(`{inner_name}({outer_name}(...))` where `{outer_name}({inner_name}(...))` belongs)",
                        "Check the order of the two steps: the equation applies the inner one first.",
                        f"apply `{inner_name}` first, then `{outer_name}`.")


def _swap_nested(node: ast.AST, tree: _Tree) -> None:
    """``f(g(x))`` becomes ``g(f(x))``: two one-argument steps applied in the other order."""
    inner = node.args[0]
    outer = ast.Call(copy.deepcopy(node.func), [inner.args[0]], [])
    tree.replace(node, ast.Call(copy.deepcopy(inner.func), [outer], []))


def _binop_edits(i: int, node: ast.BinOp) -> Iterator[_Edit]:
    right, left = _src(node.right), _src(node.left)
    has_sqrt = any(_is_call_to(n, "sqrt") for n in ast.walk(node.right)) or (
        isinstance(node.right, ast.BinOp) and isinstance(node.right.op, ast.Pow))
    if isinstance(node.op, ast.Div) and has_sqrt:
        yield _Edit(i, _replace_with(lambda n: n.left), f"no division by {right or 'the scale'}",
                    "The scores are divided by the square root of the query/key width.",
                    f"divide by `{right or 'the scale'}`.")
    elif isinstance(node.op, ast.Div) and right and not isinstance(node.right, ast.Constant):
        yield _Edit(i, _replace_with(lambda n: n.left), f"no division by `{right}`",
                    "Check every normalisation of the equation.", f"divide by `{right}`.")
    elif isinstance(node.op, (ast.Div, ast.Mult)):
        for side, other, text in (("right", "left", right), ("left", "right", left)):
            part = getattr(node, side)
            if isinstance(part, ast.Constant) and isinstance(part.value, (int, float)) and part.value not in (0, 1):
                yield _Edit(i, _replace_with(lambda n, o=other: getattr(n, o)),
                            f"the factor {part.value:g} left out",
                            "Check every constant factor of the equation.",
                            f"{'divide by' if isinstance(node.op, ast.Div) else 'multiply by'} {part.value:g}.")
    elif isinstance(node.op, ast.Add):
        yield _Edit(i, _replace_with(lambda n: n.left), f"the term `{right}` left out" if right else
                    "a term of a sum left out", "Check every term of the equation.",
                    f"add `{right}`." if right else "add the missing term.")
        yield _Edit(i, _replace_with(lambda n: n.right), f"the term `{left}` left out" if left else
                    "a term of a sum left out", "Check every term of the equation.",
                    f"add `{left}`." if left else "add the missing term.")
    elif isinstance(node.op, ast.Sub):
        yield _Edit(i, _replace_with(lambda n: n.left), f"`- {right}` left out" if right else
                    "a subtracted term left out", "Check every term of the equation.",
                    f"subtract `{right}`." if right else "subtract the missing term.")

        def apply(n: ast.AST, tree: _Tree) -> None:
            n.op = ast.Add()
        yield _Edit(i, apply, f"`+ {right}` where `- {right}` belongs (a sign flipped)" if right else
                    "a sign flipped in a difference", "Check the sign of every term of the equation.",
                    f"subtract `{right}`." if right else "subtract, do not add.")


# ---------------------------------------------------------------------------------------------
# Building the mutants

@lru_cache(maxsize=256)
def _parsed(reference: Callable[..., Any]) -> tuple[ast.FunctionDef, list[_Edit]] | None:
    fn = inspect.unwrap(reference)
    if not inspect.isfunction(fn) or fn.__code__.co_freevars or fn.__name__ == "<lambda>":
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
        return None
    fdef = tree.body[0]
    fdef.decorator_list = []
    params = {a.arg for a in fdef.args.args + fdef.args.kwonlyargs}
    nodes = _preorder(fdef)
    guards = {id(n) for g in _guards(fdef) for n in _preorder(g)}
    edits: list[_Edit] = []
    for i, node in enumerate(nodes):
        if i == 0 or id(node) in guards:
            continue
        edits.extend(_edits_of(i, node, params))
    return fdef, edits[:MAX_SINGLE]


def _guards(fdef: ast.FunctionDef) -> list[ast.AST]:
    """The input validation (``if bad: raise ...``, ``assert``): the contract's errors, which
    the error rules name; an edit there only makes right inputs raise."""
    out: list[ast.AST] = []
    for node in ast.walk(fdef):
        if isinstance(node, ast.If) and node.body and all(isinstance(b, ast.Raise) for b in node.body):
            out.append(node)
        elif isinstance(node, (ast.Raise, ast.Assert)):
            out.append(node)
    return out


def _build(reference: Callable[..., Any], fdef: ast.FunctionDef, edits: tuple[_Edit, ...]) -> Callable[..., Any] | None:
    tree = _Tree(fdef)
    targets = [tree.nodes[e.index] for e in edits]
    for a, b in itertools.combinations(targets, 2):  # one edit inside the other: not a pair
        if any(n is b for n in _preorder(a)) or any(n is a for n in _preorder(b)):
            return None
    try:
        for edit, node in zip(edits, targets):
            edit.apply(node, tree)
        module = ast.Module(body=[tree.root], type_ignores=[])
        ast.fix_missing_locations(module)
        code = compile(module, f"<edit of {reference.__name__}>", "exec")
    except (SyntaxError, ValueError, TypeError, KeyError, AttributeError):
        return None
    fn = inspect.unwrap(reference)
    namespace = dict(fn.__globals__)
    try:
        exec(code, namespace)  # noqa: S102 - the course's own reference, edited
    except Exception:  # noqa: BLE001
        return None
    built = namespace.get(fdef.name)
    if built is not None and fn.__defaults__:
        built.__defaults__ = fn.__defaults__
    return built


def _mistake(reference: Callable[..., Any], fdef: ast.FunctionDef, edits: tuple[_Edit, ...]) -> Mistake | None:
    impl = _build(reference, fdef, edits)
    if impl is None:
        return None
    if len(edits) == 1:
        e = edits[0]
        return Mistake(e.name, e.fix, impl, e.principle)
    a, b = edits
    return Mistake(f"{a.name}; and {b.name}", f"{a.fix} And: {b.fix}", impl,
                   a.principle if a.principle == b.principle else f"{a.principle} And: {b.principle}")


MAX_CALLEES = 3       # the course's own functions a reference calls, whose code is edited too


def _callees(reference: Callable[..., Any], fdef: ast.FunctionDef) -> list[tuple[str, str | None, Callable[..., Any]]]:
    """``(name, module name or None, function)`` for the course's own functions that the
    reference calls by a plain name (``softmax(...)``) or through a module (``_ref.f(...)``):
    where the reference hands its work to a helper, the learner's slip is in the helper's
    steps, which the reference's own code does not show."""
    import types

    fn = inspect.unwrap(reference)
    out: list[tuple[str, str | None, Callable[..., Any]]] = []
    for node in ast.walk(fdef):
        if not isinstance(node, ast.Call):
            continue
        f, owner = node.func, None
        if isinstance(f, ast.Name):
            target = fn.__globals__.get(f.id)
            name = f.id
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            mod = fn.__globals__.get(f.value.id)
            if not isinstance(mod, types.ModuleType):
                continue
            target, name, owner = getattr(mod, f.attr, None), f.attr, f.value.id
        else:
            continue
        target = inspect.unwrap(target) if callable(target) else None
        if (inspect.isfunction(target) and target is not fn and getattr(target, "__module__", "").startswith("attnlab.")
                and not target.__code__.co_freevars and all(t is not target for *_, t in out)):
            out.append((name, owner, target))
    return out[:MAX_CALLEES]


def _with_callee(reference: Callable[..., Any], name: str, owner: str | None, edited: Callable[..., Any]) -> Callable[..., Any]:
    """The reference, unchanged, calling ``edited`` where it calls the helper ``name``."""
    import types

    fn = inspect.unwrap(reference)
    namespace = dict(fn.__globals__)
    if owner is None:
        namespace[name] = edited
    else:
        proxy = types.ModuleType(namespace[owner].__name__)
        proxy.__dict__.update(vars(namespace[owner]))
        setattr(proxy, name, edited)
        namespace[owner] = proxy
    clone = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
    clone.__kwdefaults__ = fn.__kwdefaults__
    return clone


_CARDS = Path(__file__).resolve().parents[1] / "cards"


def learner_function(name: str) -> bool:
    """Whether ``name`` is a function a learner writes in some notebook: an exercise, which has a
    card named after it (``cards/<name>.py``, the rule of the file map). Read from the file names,
    not by importing the cards, which sit above this layer."""
    return not name.startswith("_") and (_CARDS / f"{name}.py").is_file()


def _where(name: str, callee: Callable[..., Any]) -> str:
    """Where an edit of a helper the reference calls sits, in the learner's terms: the helper by
    name only when the learner wrote it (an exercise of the course); otherwise the step it does,
    in the words the library gives it (a helper's ``step`` attribute), never the library's
    internal name, which the learner has never seen."""
    if learner_function(name):
        return f"inside `{name}`, the step your code does with it"
    words = getattr(callee, "step", None)
    return f"in the step that {words}" if words else "in one of the steps your code takes"


@lru_cache(maxsize=256)
def singles(reference: Callable[..., Any]) -> tuple[Mistake, ...]:
    """The reference with one edit, each as a :class:`Mistake` (empty if the source is not at
    hand): edits of its own code, then of the course's functions it calls (one level down)."""
    parsed = _parsed(reference)
    if parsed is None:
        return ()
    fdef, edits = parsed
    own = [m for e in edits if (m := _mistake(reference, fdef, (e,))) is not None]
    inside = []
    for name, owner, callee in _callees(reference, fdef):
        sub = _parsed(callee)
        if sub is None:
            continue
        cdef, cedits = sub
        for e in cedits:
            m = _mistake(callee, cdef, (e,))
            if m is None:
                continue
            inside.append(Mistake(f"{m.name} ({_where(name, callee)})", m.fix,
                                  _with_callee(reference, name, owner, m.impl), m.principle))
    return tuple(own + inside[:max(0, MAX_SINGLE - len(own))])


@lru_cache(maxsize=64)
def pairs(reference: Callable[..., Any]) -> tuple[Mistake, ...]:
    """The reference with two edits (of the first singles' sites), built once when first asked."""
    parsed = _parsed(reference)
    if parsed is None:
        return ()
    fdef, edits = parsed
    out = []
    for a, b in itertools.combinations(edits[:MAX_PAIRED], 2):
        if a.index == b.index:
            continue
        m = _mistake(reference, fdef, (a, b))
        if m is not None:
            out.append(m)
    return tuple(out)
