"""The install files agree: pyproject.toml keeps ranges, requirements.txt and environment.yml pin
the tested versions, and every pin satisfies its range."""
from __future__ import annotations

import tomllib

import yaml
from packaging.requirements import Requirement

from coursekit import ROOT


def _pyproject() -> dict[str, Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(data["dependencies"]) + [r for extra in data["optional-dependencies"].values() for r in extra]
    return {Requirement(r).name.lower(): Requirement(r) for r in reqs}


def _pins(lines) -> dict[str, str]:
    pins = {}
    for line in lines:
        line = line.strip()
        if line and not line.startswith(("#", "-")):
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", f"not pinned: {line}"
            pins[req.name.lower()] = spec.version
    return pins


def _environment() -> tuple[dict, dict[str, str]]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    return env, _pins(pip)


def test_environment_yml_lists_exactly_the_pyproject_dependencies():
    env, pins = _environment()
    assert set(pins) == set(_pyproject()), "environment.yml and pyproject.toml list different packages"
    assert "-e ." in next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "python=3.11" in env["dependencies"]


def test_pins_satisfy_pyproject_ranges_and_agree():
    _, env_pins = _environment()
    lock = _pins((ROOT / "requirements.txt").read_text().splitlines())
    for name, req in _pyproject().items():
        assert name in lock, f"{name} is not pinned in requirements.txt"
        assert req.specifier.contains(lock[name], prereleases=True), f"{name}=={lock[name]} outside {req.specifier}"
        assert env_pins[name] == lock[name], f"{name}: environment.yml {env_pins[name]} != requirements.txt {lock[name]}"


def test_torch_is_pinned_to_the_cpu_build():
    lock = _pins((ROOT / "requirements.txt").read_text().splitlines())
    assert lock["torch"] == "2.13.0"
