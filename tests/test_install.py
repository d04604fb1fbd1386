"""The install route (``make bootstrap`` and the README's route without make -> ``tools/install.py``):
CPU-only torch on Linux from PyTorch's CPU index, a wheel file, or the plain pin where pip's dry run
shows it resolves to a CPU build (never the CUDA build unless allowed); the plain pin elsewhere.
Then ``tools/smoke.py``'s reading of the README's route and its class of learners. No network: the
CPU index is a local folder laid out as PyTorch's, the probe and pip's report are fakes or local."""
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

import pytest


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


install = _load("attnlab_install", ROOT / "tools" / "install.py")
smoke = _load("attnlab_smoke", ROOT / "tools" / "smoke.py")
PIN = install.torch_pin()
VERSION = PIN.split("==")[1]


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


def _report(version: str, requires: list[str] = (), url: str = "", extra: list[str] = ()) -> dict:
    """A ``pip install --dry-run --report`` answer that installs torch ``version`` (and ``extra``)."""
    items = [{"metadata": {"name": "torch", "version": version, "requires_dist": list(requires)},
              "download_info": {"url": url or f"https://files.example/torch-{version}-cp311-cp311-linux_x86_64.whl"}}]
    items += [{"metadata": {"name": n, "version": "1.0"}, "download_info": {"url": f"https://files.example/{n}.whl"}}
              for n in extra]
    return {"version": "1", "install": items}


# what PyPI's Linux torch 2.13.0 requires (its report, trimmed), and what the CPU build requires
PYPI_LINUX_REQUIRES = [
    "filelock", "typing-extensions>=4.10.0", "sympy>=1.13.3", "networkx>=2.5.1", "jinja2", "fsspec>=0.8.5",
    'cuda-toolkit[cublas,cudart,cufft]==13.0.3; platform_system == "Linux"',
    'cuda-bindings<14,>=13.0.3; platform_system == "Linux" and python_version < "3.15"',
    'nvidia-cudnn-cu13==9.20.0.48; platform_system == "Linux"',
    'nvidia-nccl-cu13==2.29.7; platform_system == "Linux"',
    'triton==3.7.1; platform_system == "Linux" and python_version < "3.15"',
    'optree>=0.13.0; extra == "optree"',
]
CPU_REQUIRES = ["filelock", "typing-extensions>=4.10.0", "sympy>=1.13.3", "networkx>=2.5.1", "jinja2",
                "fsspec>=0.8.5", 'optree>=0.13.0; extra == "optree"', 'pyyaml; extra == "pyyaml"']


def _never(*args):
    raise AssertionError(f"not expected to run: {args}")


def test_plain_pin_off_linux_with_no_probe_nor_dry_run():
    for platform in ("darwin", "win32"):
        commands, note = install.plan("py", install.DEFAULT_TORCH_INDEX, platform=platform,
                                      probe=_never, resolve=_never)
        assert note == ""
        assert not any("--index-url" in c for c in commands), (platform, commands)
        assert [c[-2:] for c in commands] == [["-r", str(ROOT / "requirements.txt")], ["-e", str(ROOT)]]


def test_cuda_build_read_from_a_pip_report():
    assert "nvidia-cudnn-cu13" in install.cuda_build(_report(VERSION, PYPI_LINUX_REQUIRES))
    assert install.cuda_build(_report(VERSION, PYPI_LINUX_REQUIRES)) == (
        "it requires cuda-bindings, cuda-toolkit, nvidia-cudnn-cu13 and 2 more")
    assert install.cuda_build(_report(VERSION, ['triton==3.7.1; platform_system == "Linux"'])) == "it requires triton"
    assert install.cuda_build(_report(f"{VERSION}+cu126", CPU_REQUIRES)) == "its version is +cu126"
    assert "nvidia-cublas" in install.cuda_build(_report(VERSION, CPU_REQUIRES, extra=["nvidia-cublas"]))
    # CPU builds: the +cpu label wins; no label and no CUDA requirement (macOS, a mirror's CPU build)
    assert install.cuda_build(_report(f"{VERSION}+cpu", CPU_REQUIRES)) == ""
    assert install.cuda_build(_report(f"{VERSION}+cpu.cxx11.abi", CPU_REQUIRES)) == ""
    assert install.cuda_build(_report(VERSION, CPU_REQUIRES)) == ""
    assert install.cuda_build(_report(VERSION, ["tritonclient", "nvidia"])) == ""  # not the CUDA packages
    assert install.cuda_build({"install": []}) == ""  # torch already installed: nothing pulled


def test_unreachable_index_and_a_cpu_plain_pin_install_it_with_one_line():
    """This machine's case: PyTorch's index out of reach, pip's configuration finds the +cpu wheel
    in a local folder. The probe is short (one timeout, name lookup included)."""
    start = time.perf_counter()
    assert not install.reachable("http://127.0.0.1:9/whl/cpu", timeout=3)
    assert time.perf_counter() - start < 5
    asked = []

    def resolve(python, pin):
        asked.append((python, pin))
        return _report(f"{VERSION}+cpu", CPU_REQUIRES, url=f"file:///opt/wheels/torch-{VERSION}%2Bcpu-cp311.whl")

    commands, note = install.plan("py", "http://127.0.0.1:9/whl/cpu", platform="linux", resolve=resolve)
    assert asked == [("py", PIN)]
    assert "unreachable" in note and "\n" not in note and PIN in note and f"{VERSION}+cpu" in note
    assert not any("--index-url" in c for c in commands)
    assert commands[0][-2:] == ["--no-deps", PIN] and commands[1][-2:] == ["-r", str(ROOT / "requirements.txt")]
    # an empty index is the same path; a torch already installed makes the plain pin a no-op
    commands, note = install.plan("py", "", platform="linux", probe=_never, resolve=lambda *a: {"install": []})
    assert "already installed" in note and "\n" not in note
    assert [c[-2:] for c in commands] == [["-r", str(ROOT / "requirements.txt")], ["-e", str(ROOT)]]


def test_unreachable_index_and_a_cuda_plain_pin_stop_before_installing(monkeypatch):
    """Off this machine the plain pin is PyPI's CUDA build: the install stops, naming the fixes."""
    with pytest.raises(install.Refused) as info:
        install.plan(sys.executable, "https://download.pytorch.org/whl/cpu", platform="linux",
                     probe=lambda url: False, resolve=lambda *a: _report(VERSION, PYPI_LINUX_REQUIRES))
    message = str(info.value.code)
    assert message.startswith("error: the CPU-only torch index https://download.pytorch.org/whl/cpu is unreachable")
    assert "CUDA build" in message and PIN in message and "nvidia-cudnn-cu13" in message
    assert "Nothing was installed" in message
    for fix in ("--torch-index URL", "TORCH_INDEX=URL", "--torch-wheel PATH", "TORCH_WHEEL=PATH",
                "--allow-cuda-torch", "ATTNLAB_ALLOW_CUDA_TORCH=1"):
        assert fix in message, fix
    tag = "cp%d%d" % sys.version_info[:2]
    assert f"torch-{VERSION}+cpu-{tag}-{tag}-manylinux_" in message  # the wheel this venv needs
    # allowed: the plain pin, without asking pip first
    commands, note = install.plan("py", "https://download.pytorch.org/whl/cpu", platform="linux",
                                  probe=lambda url: False, resolve=_never, allow_cuda=True)
    assert "CUDA build allowed" in note
    assert [c[-2:] for c in commands] == [["-r", str(ROOT / "requirements.txt")], ["-e", str(ROOT)]]


def test_main_refuses_in_one_message_and_runs_no_pip(monkeypatch, capsys):
    monkeypatch.setattr(install, "reachable", lambda url, timeout=0: False)
    monkeypatch.setattr(install, "resolve_plain_pin", lambda *a: _report(VERSION, PYPI_LINUX_REQUIRES))
    for name in ("TORCH_INDEX", "TORCH_WHEEL", install.ALLOW_CUDA_ENV):
        monkeypatch.delenv(name, raising=False)
    ran = []
    real_run = install.subprocess.run
    monkeypatch.setattr(install.subprocess, "run",
                        lambda cmd, *a, **k: ran.append(cmd) or real_run(cmd, *a, **k))
    plan = install.plan
    monkeypatch.setattr(install, "plan", lambda *a, **k: plan(*a, **{**k, "platform": "linux"}))
    assert install.main([sys.executable]) == 2
    assert not any("pip" in c for c in ran if isinstance(c, list) and "install" in c), ran
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--torch-wheel PATH" in err
    # ATTNLAB_ALLOW_CUDA_TORCH=1 is --allow-cuda-torch (only the commands are planned here)
    monkeypatch.setenv(install.ALLOW_CUDA_ENV, "1")
    monkeypatch.setattr(install.subprocess, "run", lambda cmd, *a, **k: ran.append(cmd) or
                        subprocess.CompletedProcess(cmd, 0, "3.11.7\n" if "-c" in cmd else "", ""))
    ran.clear()
    assert install.main(["py"]) == 0
    assert [c[-2:] for c in ran[1:]] == [["-r", str(ROOT / "requirements.txt")], ["-e", str(ROOT)]]


def test_the_dry_run_reads_what_pip_would_install(tmp_path, monkeypatch):
    """resolve_plain_pin against pip itself (this venv's), offline: a wheel folder with a CUDA-like
    torch (it requires nvidia-* and triton) and one with a +cpu torch, at a version not installed."""
    for name in [k for k in os.environ if k.startswith("PIP_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    cuda, cpu = tmp_path / "cuda", tmp_path / "cpu"
    _wheel(cuda / "torch", "torch", "99.0",
           ["filelock", "nvidia-cublas==13.0", 'triton==3.7.1; platform_system == "Linux"'])
    _wheel(cpu / "torch", "torch", "99.0+cpu", ["filelock"])
    monkeypatch.setenv("PIP_FIND_LINKS", str(cuda / "torch"))
    report = install.resolve_plain_pin(sys.executable, "torch==99.0")
    assert "nvidia-cublas" in install.cuda_build(report) and "triton" in install.cuda_build(report)
    monkeypatch.setenv("PIP_FIND_LINKS", str(cpu / "torch"))
    report = install.resolve_plain_pin(sys.executable, "torch==99.0")
    assert install.cuda_build(report) == "" and "99.0+cpu" in install.resolved_torch(report)
    with pytest.raises(install.Refused, match="could not resolve torch==98.0"):
        install.resolve_plain_pin(sys.executable, "torch==98.0")


def test_an_old_pip_is_upgraded_before_the_dry_run(monkeypatch, capsys):
    """Ubuntu 22.04's venv has pip 22.0: no --report, and no reading of a wheel's metadata alone."""
    ran = []

    def fake_run(cmd, *a, **k):
        ran.append(cmd[3:])
        out = "pip 22.0.2 from /x (python 3.10)\n" if cmd[3:] == ["--version"] else '{"install": []}'
        return subprocess.CompletedProcess(cmd, 0, out, "")

    monkeypatch.setattr(install.subprocess, "run", fake_run)
    assert install.resolve_plain_pin("py", PIN) == {"install": []}
    assert ran[0] == ["--version"] and ran[1][-2:] == ["--upgrade", "pip>=23.0"]
    assert "--dry-run" in ran[2] and "--report" in ran[2] and ran[2][-1] == PIN
    assert "upgrading the venv's pip" in capsys.readouterr().err


def test_a_torch_wheel_file_needs_no_index(tmp_path):
    tag = "cp%d%d" % sys.version_info[:2]
    wheel = tmp_path / f"torch-{VERSION}+cpu-{tag}-{tag}-manylinux_2_28_x86_64.whl"
    wheel.write_bytes(b"")
    commands, note = install.plan("py", install.DEFAULT_TORCH_INDEX, platform="linux", probe=_never,
                                  resolve=_never, torch_wheel=str(wheel))
    assert commands[0][-2:] == ["--no-deps", str(wheel)] and str(wheel) in note
    assert commands[1][-2:] == ["-r", str(ROOT / "requirements.txt")]
    other = tmp_path / f"torch-1.0.0+cpu-{tag}-{tag}-manylinux_2_28_x86_64.whl"
    cuda = tmp_path / f"torch-{VERSION}+cu126-{tag}-{tag}-manylinux_2_28_x86_64.whl"
    for bad, why in ((tmp_path / "missing.whl", "no such file"), (other, "expected a wheel of"), (cuda, "CUDA build")):
        bad.write_bytes(b"") if bad.name != "missing.whl" else None
        with pytest.raises(install.Refused, match=why):
            install.plan("py", install.DEFAULT_TORCH_INDEX, platform="linux", probe=_never, resolve=_never,
                         torch_wheel=str(bad))


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
    for version in ("3.9.18", "3.14.0"):
        fake = tmp_path / f"python{version}"
        fake.write_text(f"#!/bin/sh\necho {version}\n")
        fake.chmod(0o755)
        with pytest.raises(SystemExit, match=r"supports Python 3\.10 to 3\.13"):
            install.check_python(str(fake))
    install.check_python(sys.executable)  # the Python running the tests is supported


def test_the_readme_route_without_make_is_the_installer():
    """What ``tools/smoke.py --route pip`` runs: the README's lines as written, only ``python3``
    replaced. The route never names PyTorch's index to pip (minutes of retries where it is out of
    reach) and never installs the plain pin with pip alone on Linux (the CUDA build)."""
    lines = smoke.readme_route(ROOT / "README.md")
    commands = smoke.route_commands(lines, "/opt/py/bin/python3")
    assert commands[0] == ["/opt/py/bin/python3", "-m", "venv", ".venv"]
    assert ["/opt/py/bin/python3", "tools/install.py", ".venv/bin/python"] in commands
    assert not any("jupyter" in " ".join(c) for c in commands)
    text = " ".join(" ".join(c) for c in commands)
    assert "download.pytorch.org" not in text and "pip install" not in text


def test_readme_route_extraction(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n### Without make: pip\n\nText.\n\n```bash\npython -m venv .venv\n# a comment\n\n"
                      ".venv/bin/pip install -c requirements.txt -e \".[course]\"   # trailing\n"
                      ".venv/bin/jupyter lab notebooks/\n```\n\n```bash\nnot this\n```\n")
    lines = smoke.readme_route(readme)
    assert lines == ["python -m venv .venv", '.venv/bin/pip install -c requirements.txt -e ".[course]"   # trailing']
    assert smoke.route_commands(lines, "/p") == [
        ["/p", "-m", "venv", ".venv"], [".venv/bin/pip", "install", "-c", "requirements.txt", "-e", ".[course]"]]
    readme.write_text("# x\n\n### Without make\n\nno block\n")
    with pytest.raises(smoke.Failed, match="no ```bash block"):
        smoke.readme_route(readme)
    readme.write_text("# x\n")
    with pytest.raises(smoke.Failed, match="no section"):
        smoke.readme_route(readme)


def test_the_smoke_class(tmp_path):
    """Right work before and after the rest (a warm worker's later submissions), blank, wrong, broken."""
    subs = smoke.class_notebooks(ROOT)
    kinds = [k for _, k in sorted((s, k) for s, (_, k) in subs.items())]
    assert kinds[:2] == ["right", "right"] and kinds[-2:] == ["right", "right"] and kinds.count("right") >= 3
    assert {"blank", "wrong", "broken"} <= set(kinds)
    texts = {k: t for t, k in subs.values()}
    assert texts["right"] == (ROOT / "solutions" / A / f"{A}.ipynb").read_text(encoding="utf-8")
    assert texts["blank"] == (ROOT / "notebooks" / A / f"{A}.ipynb").read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        json.loads(texts["broken"])
    wrong = json.loads(texts["wrong"])
    code = "".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in wrong["cells"])
    assert smoke.STABLE not in code and "shifted = x  # no max subtraction" in code


A = "01_weighted_averages"


def _grades(folder: Path, rows: list[tuple[str, str, float]]) -> None:
    (folder / "autograde").mkdir(parents=True, exist_ok=True)
    with open(folder / "autograde" / "grades.csv", "w", encoding="utf-8") as fh:
        fh.write("student_id,assignment,notebook,status,score,max_score,needs_manual_grade,timestamp,detail\n")
        for student, status, score in rows:
            fh.write(f"{student},{A},{A},{status},{score},12.0,False,,why\n")
    for student, status, _ in rows:
        page = folder / "autograde" / "feedback" / student / A / f"{A}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("weighted_average softmax mix_tokens check_softmax")


def test_the_smoke_checks_every_row(tmp_path):
    subs = {s: ("", k) for s, k in smoke.CLASS}
    expected = {"right": ("graded", 12.0), "blank": ("graded", 0.0), "wrong": ("graded", 9.0),
                "broken": ("malformed notebook", 0.0)}
    good = [(s, *expected[k]) for s, k in smoke.CLASS]
    _grades(tmp_path, good)
    assert "8 rows" in smoke.check_class(tmp_path, subs, "")
    # the warm worker's bug this smoke must catch: a later submission's kernel died
    later = [(s, "kernel died", 0.0) if s == "c-right-3" else (s, st, sc) for s, st, sc in good]
    bad = {
        "c-right-3 (right): 0/12, status 'kernel died'": later,
        "c-right-4: 2 rows": good + [("c-right-4", "graded", 12.0)],
        "c-right-5: 0 rows": [r for r in good if r[0] != "c-right-5"],
        "b-wrong (wrong): 12/12": [(s, "graded", 12.0) if s == "b-wrong" else (s, st, sc) for s, st, sc in good],
        "b-broken (broken): 0/12, status 'graded'": [(s, "graded", 0.0) if s == "b-broken" else (s, st, sc)
                                                     for s, st, sc in good],
    }
    for needle, rows in bad.items():
        folder = tmp_path / str(abs(hash(needle)))
        _grades(folder, rows)
        with pytest.raises(smoke.Failed) as info:
            smoke.check_class(folder, subs, "the grader's output")
        assert needle in str(info.value), (needle, str(info.value))


def test_clean_grading_removes_what_make_clean_grading_does(tmp_path):
    auto = tmp_path / "autograde"
    for name in ("autograded/x/y.ipynb", "feedback/x/y.html", ".grading/fonts.json", "grades.csv", "gradebook.db"):
        (auto / name).parent.mkdir(parents=True, exist_ok=True)
        (auto / name).write_text("x")
    (auto / "submitted" / "x").mkdir(parents=True)
    smoke.clean_grading(tmp_path)
    assert sorted(p.name for p in auto.iterdir()) == ["submitted"]
