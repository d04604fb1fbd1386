"""A throwaway interpreter whose ``attnlab`` is the one under ROOT/src, the course's venv for the rest.

The grader starts its sandboxes with ``sys.executable -I`` (PYTHONPATH ignored), so pointing
PYTHONPATH at another checkout is not enough: the sandbox would import the venv's editable
attnlab. This makes a tiny venv whose site-packages puts ROOT/src first and then adds the course
venv's site-packages."""
from __future__ import annotations

import hashlib
import os
import site
import sys
from pathlib import Path


def shim_python(root: Path) -> str:
    root = root.resolve()
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    tag = hashlib.sha256(f"{root}|{base}|{sys.prefix}".encode()).hexdigest()[:12]
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"redteam54b-shim-{tag}"
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    py = home / "bin" / "python"
    sp = home / "lib" / ver / "site-packages"
    if not py.exists():
        (home / "bin").mkdir(parents=True, exist_ok=True)
        sp.mkdir(parents=True, exist_ok=True)
        (home / "pyvenv.cfg").write_text(
            f"home = {os.path.dirname(base)}\ninclude-system-site-packages = false\n"
            f"version = {sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}\n")
        venv_sites = [p for p in site.getsitepackages() if p.startswith(sys.prefix)]
        lines = [str(root / "src")] + [f"import site; site.addsitedir({p!r})" for p in venv_sites]
        (sp / "00_redteam54b.pth").write_text("\n".join(lines) + "\n")
        tmp = home / "bin" / ".python.tmp"
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()
        os.symlink(base, tmp)
        os.replace(tmp, py)
    share = home / "share"  # nbgrader finds its templates under sys.prefix/share/jupyter
    if not share.exists() and (Path(sys.prefix) / "share").is_dir():
        try:
            os.symlink(Path(sys.prefix) / "share", share)
        except FileExistsError:
            pass
    return str(py)


if __name__ == "__main__":
    print(shim_python(Path(sys.argv[1])))
