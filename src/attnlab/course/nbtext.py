"""Edit a course notebook as plain text, and write notebooks in the project's canonical form.

The ``.ipynb`` files in ``solutions/`` are the source of truth. This tool converts one to a
text form for editing in any editor and back, losslessly, and writes every notebook the same
way (no outputs, no execution counts, no volatile metadata, sorted keys), so that a diff shows
only what a person changed.

    python -m attnlab.course.nbtext export solutions/01_weighted_averages/01_weighted_averages.ipynb > /tmp/nb.txt
    python -m attnlab.course.nbtext build /tmp/nb.txt solutions/01_weighted_averages/01_weighted_averages.ipynb
    python -m attnlab.course.nbtext normalise solutions/*/*.ipynb

Text form: each cell starts with a header line ``#%% KIND [id=GRADE_ID] [points=N]``, where
KIND is ``markdown``, ``code``, ``solution`` (a graded answer cell: nbgrader solution),
``tests`` (an autograder cell, with points), ``readonly`` (a locked code cell) or
``readonly-markdown``; the cell's source follows verbatim. A plain cell whose id is not the
``cell-NN`` that ``build`` gives by position carries ``id=...`` too (the install check, say).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HEADER = "#%% "
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def _nbgrader_meta(kind: str, grade_id: str | None, points: float | None) -> dict | None:
    if kind in ("markdown", "code"):
        return None
    if not grade_id:
        raise ValueError(f"a {kind} cell needs id=...")
    meta = {"grade": kind == "tests", "grade_id": grade_id, "locked": kind != "solution",
            "schema_version": 3, "solution": kind == "solution", "task": False}
    if kind == "tests":
        if points is None:
            raise ValueError(f"tests cell {grade_id} needs points=N")
        meta["points"] = points
    return meta


def _kind_of(cell: dict) -> str:
    nbg = cell.get("metadata", {}).get("nbgrader")
    if cell["cell_type"] == "markdown":
        return "readonly-markdown" if nbg else "markdown"
    if not nbg:
        return "code"
    if nbg.get("solution"):
        return "solution"
    if nbg.get("grade"):
        return "tests"
    return "readonly"


def canonical(nb: dict) -> dict:
    """The notebook without outputs, counts or volatile metadata."""
    cells = []
    for cell in nb["cells"]:
        out = {"cell_type": cell["cell_type"], "id": cell.get("id"), "metadata": {},
               "source": cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])}
        nbg = cell.get("metadata", {}).get("nbgrader")
        if nbg:
            out["metadata"]["nbgrader"] = {k: v for k, v in nbg.items() if k != "cell_type"}
            if "checksum" in nbg:
                out["metadata"]["nbgrader"]["checksum"] = nbg["checksum"]
        for key in ("deletable", "editable"):
            if key in cell.get("metadata", {}):
                out["metadata"][key] = cell["metadata"][key]
        if cell["cell_type"] == "code":
            out["execution_count"] = None
            out["outputs"] = []
        cells.append(out)
    return {"cells": cells,
            "metadata": {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def dumps(nb: dict) -> str:
    return json.dumps(canonical(nb), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def export(nb: dict) -> str:
    chunks = []
    for i, cell in enumerate(canonical(nb)["cells"]):
        kind = _kind_of(cell)
        head = HEADER + kind
        nbg = cell["metadata"].get("nbgrader")
        if nbg:
            head += f" id={nbg['grade_id']}"
            if "points" in nbg:
                head += f" points={nbg['points']:g}"
        elif cell.get("id") and cell["id"] != f"cell-{i:02d}":  # an id `build` would not give back
            head += f" id={cell['id']}"
        chunks.append(head + "\n" + cell["source"])
    return "\n".join(chunks) + "\n"


def build(text: str) -> dict:
    cells = []
    blocks = text.split("\n" + HEADER)
    if not blocks[0].startswith(HEADER):
        raise ValueError(f"the text must start with a '{HEADER}KIND' line")
    blocks[0] = blocks[0][len(HEADER):]
    for i, block in enumerate(blocks):
        head, _, source = block.partition("\n")
        words = head.split()
        kind, opts = words[0], dict(w.split("=", 1) for w in words[1:])
        if i == len(blocks) - 1:
            source = source[:-1] if source.endswith("\n") else source
        points = float(opts["points"]) if "points" in opts else None
        if points is not None and points.is_integer():
            points = int(points)
        meta = _nbgrader_meta(kind.replace("readonly-markdown", "readonly"), opts.get("id"), points)
        cell_type = "markdown" if kind in ("markdown", "readonly-markdown") else "code"
        cell = {"cell_type": cell_type, "id": opts.get("id") or f"cell-{i:02d}",
                "metadata": {"nbgrader": meta} if meta else {}, "source": source}
        cells.append(cell)
    return canonical({"cells": cells})


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("export", "build", "normalise"):
        print(__doc__)
        return 2
    if argv[0] == "export":
        sys.stdout.write(export(json.loads(Path(argv[1]).read_text())))
    elif argv[0] == "build":
        Path(argv[2]).parent.mkdir(parents=True, exist_ok=True)
        Path(argv[2]).write_text(dumps(build(Path(argv[1]).read_text())))
    else:
        for path in argv[1:]:
            Path(path).write_text(dumps(json.loads(Path(path).read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
