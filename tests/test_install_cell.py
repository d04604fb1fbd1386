"""Every notebook opens with the install check: where ``import attnlab`` fails (a Jupyter whose
kernel is not the course's venv, VS Code picking another interpreter, a Colab runtime), the first
code cell prints the one command that installs it, not a bare traceback. And the wheel that the
Colab route of docs/install.md uploads carries the whole library."""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import coursekit as ck
from attnlab.course.release import INSTALL_CELL

NOTEBOOKS = sorted(ck.ROOT.glob("solutions/*/*.ipynb")) + sorted(ck.ROOT.glob("notebooks/*/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ck.ROOT)))
def test_first_code_cell_is_the_install_check(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = next(c for c in cells if c["cell_type"] == "code")
    source = first["source"] if isinstance(first["source"], str) else "".join(first["source"])
    assert source == INSTALL_CELL, \
        f"{path.name}: the first code cell is not attnlab.course.release.INSTALL_CELL"


def _run_without_attnlab(cwd: Path) -> subprocess.CompletedProcess:
    # -S: no site-packages, so neither the venv's packages nor the editable attnlab are importable
    return subprocess.run([sys.executable, "-I", "-S", "-c", INSTALL_CELL], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


def test_inside_the_course_it_prints_the_command_for_this_folder():
    proc = _run_without_attnlab(ck.ROOT / "notebooks" / "01_weighted_averages")
    assert proc.returncode != 0
    assert f'%pip install' in proc.stdout and f'-e "{ck.ROOT}"' in proc.stdout, proc.stdout
    assert sys.executable in proc.stdout or "attnlab is not installed for" in proc.stdout
    # one short error, not the traceback of an import deep inside a library
    assert proc.stderr.strip().splitlines()[-1] == \
        "ModuleNotFoundError: attnlab is not installed: run the command printed above"
    assert proc.stderr.count("File ") == 1


def test_outside_the_course_it_says_how_to_get_it(tmp_path):
    proc = _run_without_attnlab(tmp_path)
    assert proc.returncode != 0
    assert "not inside the course folder" in proc.stdout and ".whl" in proc.stdout and "%pip install" in proc.stdout


def test_with_attnlab_installed_it_is_silent(tmp_path):
    proc = subprocess.run([sys.executable, "-c", INSTALL_CELL], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


def test_the_colab_wheel_carries_the_library(tmp_path):
    """docs/install.md, 'Without make': `pip wheel --no-deps .` gives the file a Colab runtime installs:
    every module of src/attnlab, the trained checkpoints, and the base dependencies."""
    pytest.importorskip("setuptools")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(tmp_path), str(ck.ROOT)], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = tmp_path.glob("attnlab-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    src = ck.ROOT / "src"
    for path in (src / "attnlab").rglob("*"):
        if path.suffix in (".py", ".pt") and "__pycache__" not in path.parts:
            assert str(path.relative_to(src)) in names, f"{path.relative_to(src)} is missing from the wheel"
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [ln for ln in zipfile.ZipFile(wheel).read(meta).decode().splitlines() if ln.startswith("Requires-Dist:")]
    for dep in ("numpy", "torch", "matplotlib", "scikit-learn", "threadpoolctl"):
        assert any(ln.split()[1].startswith(dep) and "extra ==" not in ln for ln in requires), dep
