"""``attnlab-course``: the instructor's commands (``make release`` and ``make grade`` wrap it)."""
from __future__ import annotations

import argparse
import sys

from . import grade as _grade
from . import release as _release


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="attnlab-course",
        description="Release student notebooks and grade submissions of the attnlab course.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/ with nbgrader")
    p.add_argument("assignments", nargs="*", help="assignment ids (default: all)")
    g = sub.add_parser("grade", help="autograde autograde/submitted/, export grades.csv, write feedback")
    g.add_argument("assignments", nargs="*", help="assignment ids (default: all that were submitted)")
    g.add_argument("--csv", default="autograde/grades.csv", help="where to write the grades (default: %(default)s)")
    args = parser.parse_args(argv)
    root = _release.course_root()
    if args.command == "release":
        for path in _release.release(root, args.assignments or None):
            print(f"wrote {path.relative_to(root)}")
    else:
        _grade.grade(root, args.assignments or None, csv=args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
