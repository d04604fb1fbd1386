"""``python -m attnlab.cards [--out docs/mistakes.md]``: the cards as one page of the docs (each
exercise's contract, and the mistakes its checks name with what to change), written from the
cards so that it cannot drift from what the checks say. ``--check`` exits 1 when the page on
disk is not what the cards give. ``--files`` writes the other page the cards give, every file of each
exercise (:mod:`attnlab.cards._files`, ``docs/files.md``)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import _files, all_cards

HEADER = """# What the checks can name

Generated from the cards (`src/attnlab/cards/`, one file per exercise) by
`python -m attnlab.cards --out docs/mistakes.md`; do not edit by hand. For each exercise: its
contract, and the mistakes its checks name, each with what to change (no code: the code-level fix
comes from `attnlab.checks.explain("<exercise>")` after a failing check). Besides these, every
check names mistakes by rule: the type rule (docs/contract.md, "Types"), the contract's errors, the
rank a piece of code assumes, and the single and paired edits of the reference
(`attnlab.checks._generated`). Predict-then-run questions are listed without their tempting
answers.
"""


def render() -> str:
    parts = [HEADER]
    notebook = None
    for card in all_cards():
        if card.notebook != notebook:
            notebook = card.notebook
            parts.append(f"\n## {notebook}\n")
        lines = card.describe().splitlines()
        parts.append(f"\n### `{card.exercise}`\n")
        if card.summary:
            parts.append(f"\n{card.summary[0].upper()}{card.summary[1:]}.\n")
        body = [line.strip() for line in lines[1:]]
        parts.append("\n" + "\n".join(f"{b}" if b.startswith("- ") else f"{b}\n" for b in body) + "\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m attnlab.cards", description=__doc__)
    parser.add_argument("--out", type=Path, help="write the page there (default: print it)")
    parser.add_argument("--check", action="store_true", help="exit 1 if --out is not up to date")
    parser.add_argument("--files", action="store_true",
                        help="the page of every exercise's files (docs/files.md) instead of the mistakes")
    args = parser.parse_args(argv)
    if args.files and not (_files.ROOT / "tests").is_dir():
        parser.error(f"--files needs the course's repository (its tests/ folder); {_files.ROOT} has none")
    text = _files.render() if args.files else render()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is not what the cards give: run python -m attnlab.cards{' --files' if args.files else ''} --out {args.out}",
                  file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
