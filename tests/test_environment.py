"""The install files agree: pyproject.toml keeps ranges and says which Pythons are supported;
requirements.txt is one lock for all of them (``make lock``: uv resolves every supported Python at
once, with environment markers where a package must differ); environment.yml pins the same
versions for conda's Python 3.11; and every pin satisfies its range on every supported Python."""
from __future__ import annotations

import re
import sys

import pytest
import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from coursekit import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the backport (declared in the test extra)
    import tomli as tomllib

# Every patch release a distribution ships, the oldest and newest of each minor: Debian 12's 3.11.2
# and Ubuntu 22.04's 3.10 among them (docs/install.md, "Supported Pythons"). soupsieve changes at 3.11.5.
SUPPORTED = ["3.10.0", "3.10.12", "3.11.0", "3.11.2", "3.11.4", "3.11.5", "3.11.7", "3.12.0",
             "3.12.3", "3.13.0", "3.13.9"]
UNSUPPORTED = ["3.9.18", "3.14.0"]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _declared(project: dict | None = None) -> list[Requirement]:
    """Every requirement pyproject.toml declares, base and extras, without the self-references
    (``attnlab[course,site]`` in the test extra)."""
    project = project or _project()
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    return [Requirement(r) for r in reqs if Requirement(r).name != project["name"]]


def _environment(python: str) -> dict[str, str]:
    env = default_environment()
    env.update(python_full_version=python, python_version=".".join(python.split(".")[:2]),
               sys_platform="linux", platform_system="Linux", platform_machine="x86_64",
               implementation_name="cpython")
    return env


def lock_for(python: str, lines=None) -> dict[str, str]:
    """``{name: version}`` that requirements.txt installs on ``python`` (markers evaluated);
    a package pinned twice for one Python, or pinned without ``==``, is an error."""
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines() if lines is None else lines
    pins: dict[str, str] = {}
    for line in lines:
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate(_environment(python)):
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"not pinned: {line}"
        name = req.name.lower()
        assert name not in pins, f"{name} is pinned twice for Python {python}"
        pins[name] = spec.version
    return pins


def _conda_pins() -> tuple[dict, dict[str, str]]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    pins = {}
    for line in pip:
        if line.startswith("-"):
            continue
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", f"environment.yml: not pinned: {line}"
        pins[req.name.lower()] = spec.version
    return env, pins


def test_requires_python_is_what_is_supported():
    spec = SpecifierSet(_project()["requires-python"])
    for python in SUPPORTED:
        assert spec.contains(python), f"requires-python {spec} refuses the supported Python {python}"
    for python in UNSUPPORTED:
        assert not spec.contains(python), f"requires-python {spec} admits the untested Python {python}"


@pytest.mark.parametrize("python", SUPPORTED)
def test_lock_satisfies_every_range_on_every_supported_python(python):
    lock = lock_for(python)
    for req in _declared():
        if req.marker is not None and not req.marker.evaluate(_environment(python)):
            continue
        name = req.name.lower()
        assert name in lock, f"{name} is declared in pyproject.toml but requirements.txt installs none on Python {python}"
        assert req.specifier.contains(lock[name], prereleases=True), \
            f"Python {python}: {name}=={lock[name]} is outside pyproject.toml's {req.specifier}"


def test_lock_for_detects_a_double_pin_and_a_marker():
    """The reader the tests above rely on: markers select, a double pin is an error."""
    lines = ["numpy==2.2.6 ; python_full_version < '3.11'", "numpy==2.4.6 ; python_full_version >= '3.11'"]
    assert lock_for("3.10.12", lines) == {"numpy": "2.2.6"}
    assert lock_for("3.11.2", lines) == {"numpy": "2.4.6"}
    with pytest.raises(AssertionError, match="pinned twice"):
        lock_for("3.11.2", lines + ["numpy==2.4.5"])


def test_soupsieve_fits_debian_python():
    """The failure that started this: soupsieve from 3.0.2 on needs Python >= 3.11.5, and Debian 12
    ships 3.11.2. The lock must give older Pythons a release they can install."""
    assert tuple(int(x) for x in lock_for("3.11.2")["soupsieve"].split(".")[:2]) < (3, 0)


def test_lock_has_no_cuda_packages():
    """On Linux the install takes torch's CPU build (tools/install.py); the CUDA packages PyPI's
    torch would pull are never pinned, so nothing installs them beside the CPU build."""
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    found = re.findall(r"^(nvidia-[\w-]+|cuda-[\w-]+|triton)==", text, re.M)
    assert not found, f"requirements.txt pins CUDA packages: {found}"


def test_torch_is_held_at_the_cpu_build_everywhere():
    for python in SUPPORTED:
        assert lock_for(python)["torch"] == "2.13.0"
    assert "torch==2.13.0" in (ROOT / "tools" / "lock-constraints.txt").read_text(encoding="utf-8")


def test_environment_yml_pins_the_lock_for_python_311():
    env, pins = _conda_pins()
    assert "python=3.11" in env["dependencies"]
    assert "-e ." in next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    declared = {r.name.lower() for r in _declared()
                if r.marker is None or r.marker.evaluate(_environment("3.11.7"))}
    assert set(pins) == declared, (f"environment.yml and pyproject.toml list different packages: "
                                   f"{sorted(set(pins) ^ declared)}")
    lock = lock_for("3.11.7")
    for name, version in pins.items():
        assert lock[name] == version, f"{name}: environment.yml {version} != requirements.txt {lock[name]} (Python 3.11)"
