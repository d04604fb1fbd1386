"""The install route (``make bootstrap`` -> ``tools/install.py``): CPU-only torch on Linux from
PyTorch's CPU index, the plain pin elsewhere, a quick one-line fallback where the index is out of
reach. No network: the CPU index is a local folder laid out as PyTorch's."""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import yaml

from coursekit import ROOT

spec = importlib.util.spec_from_file_location("attnlab_install", ROOT / "tools" / "install.py")
install = importlib.util.module_from_spec(spec)
spec.loader.exec_module(install)


def _wheel(folder: Path, name: str, version: str, requires: list[str]) -> Path:
    """A minimal, valid wheel (metadata only) as PyTorch's index would list it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: %s\nVersion: %s\n%s" % (
            name, version, "".join(f"Requires-Dist: {r}\n" for r in requires)),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    with zipfile.ZipFile(path, "w") as zf:
        for arc, text in files.items():
            data = text.encode()
            zf.writestr(arc, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arc},sha256={digest},{len(data)}")
        zf.writestr(f"{info}/RECORD", "\n".join(record + [f"{info}/RECORD,,"]) + "\n")
    # the project page of a PEP 503 simple index, as download.pytorch.org serves it
    links = "".join(f'<a href="{w.name}">{w.name}</a>\n' for w in sorted(folder.glob("*.whl")))
    (folder / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}</body></html>\n")
    return path


def _offline_pip_env() -> dict:
    # ignore this machine's pip configuration (its local wheel folder holds a real torch)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


def test_cpu_index_path_resolves_the_cpu_build(tmp_path):
    """What pip resolves with the installer's own command on the CPU-index path: torch X+cpu
    from that index, alone (its dependencies come pinned from requirements.txt)."""
    pin = install.torch_pin()
    version = pin.split("==")[1]
    index = tmp_path / "whl-cpu"
    _wheel(index / "torch", "torch", f"{version}+cpu", ["filelock", "sympy", "networkx"])
    commands, note = install.plan(sys.executable, index.as_uri(), platform="linux")
    assert note == "" and commands[0][-3:] == ["--index-url", index.as_uri(), pin]
    assert "--no-deps" in commands[0] and commands[1][-2:] == ["-r", str(ROOT / "requirements.txt")]
    report = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "install.py"), sys.executable,
                           "--torch-index", index.as_uri(), "--dry-run", str(report)],
                          env=_offline_pip_env(), capture_output=True, text=True, timeout=120)
    if not sys.platform.startswith("linux"):
        assert proc.returncode != 0 and "no CPU-index step" in proc.stderr
        return
    assert proc.returncode == 0, proc.stdout + proc.stderr
    items = json.loads(report.read_text())["install"]
    resolved = {i["metadata"]["name"]: i["metadata"]["version"] for i in items}
    assert resolved == {"torch": f"{version}+cpu"}, resolved
    assert items[0]["download_info"]["url"].startswith(index.as_uri())


def test_plain_pin_off_linux_and_with_an_empty_index():
    for platform, index in (("darwin", install.DEFAULT_TORCH_INDEX), ("win32", install.DEFAULT_TORCH_INDEX),
                            ("linux", "")):
        commands, note = install.plan("py", index, platform=platform, probe=lambda url: True)
        assert note == ""
        assert not any("--index-url" in c for c in commands), (platform, commands)
        assert any(str(ROOT / "requirements.txt") in c for c in commands)


def test_unreachable_index_falls_back_quickly_with_one_line():
    start = time.perf_counter()
    assert not install.reachable("http://127.0.0.1:9/whl/cpu", timeout=3)
    assert time.perf_counter() - start < 5
    commands, note = install.plan("py", "http://127.0.0.1:9/whl/cpu", platform="linux")
    assert "unreachable" in note and "\n" not in note and install.torch_pin() in note
    assert not any("--index-url" in c for c in commands)


def test_makefile_passes_its_torch_index_to_the_installer():
    proc = subprocess.run(["make", "-n", "-B", "bootstrap", "TORCH_INDEX=file:///x/cpu", "VENV=/nonexistent"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert 'tools/install.py /nonexistent/bin/python --torch-index "file:///x/cpu"' in proc.stdout
    default = subprocess.run(["make", "-n", "-B", "bootstrap", "VENV=/nonexistent"], cwd=ROOT,
                             capture_output=True, text=True).stdout
    assert install.DEFAULT_TORCH_INDEX in default


def test_environment_yml_takes_torch_from_the_cpu_index():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert f"--extra-index-url {install.DEFAULT_TORCH_INDEX}" in pip
    assert install.torch_pin() in pip


def test_an_unsupported_python_stops_with_one_clear_line(tmp_path):
    """A venv made with Python 3.9 (or 3.14) is refused before pip runs, naming the supported range."""
    import pytest

    for version in ("3.9.18", "3.14.0"):
        fake = tmp_path / f"python{version}"
        fake.write_text(f"#!/bin/sh\necho {version}\n")
        fake.chmod(0o755)
        with pytest.raises(SystemExit, match=r"supports Python 3\.10 to 3\.13"):
            install.check_python(str(fake))
    install.check_python(sys.executable)  # the Python running the tests is supported
