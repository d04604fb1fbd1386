"""Rewrite environment.yml's pip pins from requirements.txt, for conda's Python 3.11 (``make lock``
runs this after uv). Every package pyproject.toml declares, at the version the lock installs on
Python 3.11; tests/test_environment.py checks that the two files agree.

    python tools/environment_yml.py
"""
from __future__ import annotations

import sys
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYTHON = "3.11.7"
MARKER = "      - --extra-index-url"


def main() -> int:
    env = dict(default_environment(), python_full_version=PYTHON, python_version="3.11", sys_platform="linux",
               platform_system="Linux", platform_machine="x86_64", implementation_name="cpython")
    lock = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "-")):
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate(env):
                lock[req.name.lower()] = next(iter(req.specifier)).version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = []
    for text in list(project["dependencies"]) + [r for x in project["optional-dependencies"].values() for r in x]:
        req = Requirement(text)
        if req.name != project["name"] and (req.marker is None or req.marker.evaluate(env)) and req.name not in names:
            names.append(req.name)
    path = ROOT / "environment.yml"
    head = path.read_text(encoding="utf-8").split(MARKER)[0]
    pins = [f"      - {name}=={lock[name.lower()]}" for name in names]
    path.write_text(head + "\n".join([MARKER + " https://download.pytorch.org/whl/cpu", *pins, "      - -e ."]) + "\n",
                    encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
