"""The learner's Lab (`make lab`): a real JupyterLab server started with the Makefile's arguments
serves START.md as its start page, the notebooks and the solutions, and none of nbgrader's
instructor tools, nor JupyterLab's news."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from coursekit import ROOT

TOKEN = "attnlab-test-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, follow: bool = True) -> tuple[int, str, dict]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(NoRedirect)
    req = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8", "replace"), dict(resp.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace"), dict(exc.headers)


def lab_args(port: int) -> list[str]:
    out = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "print-lab-args: ; @echo $(LAB_ARGS)",
                          "print-lab-args", f"PORT={port}"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited ({proc.returncode}): {proc.stdout.read()[-3000:]}")
        try:
            if _get(url)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"no answer from {url} in {seconds:.0f} s")


def stop(proc: subprocess.Popen) -> None:
    """End a server started for a test: asked first, killed after 20 s."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


pytestmark = pytest.mark.xdist_group("lab")  # the module's fixture is built once, on one worker


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    port = _free_port()
    args = lab_args(port)
    assert "--config=deploy/learner_lab_config.py" in args and "--ServerApp.root_dir=." in args
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path_factory.mktemp("jupyter-config"))  # no user config
    cmd = [sys.executable, "-m", "jupyterlab", *args, f"--ServerApp.token={TOKEN}", "--allow-root"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/api/status", proc)
        yield base
    finally:
        stop(proc)


def test_start_page_is_the_course_map(lab):
    status, _, headers = _get(f"{lab}/", follow=False)
    assert status in (301, 302) and headers["Location"].rstrip("?").endswith("/lab/tree/START.md")
    # as the Lab's Markdown Preview asks for it: a text file (jupytext, pinned for the tests,
    # would otherwise hand back a markdown file as a notebook model)
    status, body, _ = _get(f"{lab}/api/contents/START.md?type=file&format=text")
    assert status == 200 and "notebooks/01_weighted_averages" in json.loads(body)["content"]
    status, body, _ = _get(f"{lab}/lab/api/settings/@jupyterlab/docmanager-extension:plugin")
    assert status == 200 and "Markdown Preview" in body


def test_notebooks_and_solutions_in_view_tooling_hidden(lab):
    status, body, _ = _get(f"{lab}/api/contents/")
    names = {item["name"] for item in json.loads(body)["content"]}
    assert {"notebooks", "solutions", "START.md"} <= names
    assert not names & {"src", "tests", "autograde", "benchmarks"}, names
    for folder in ("notebooks", "solutions"):
        status, _, _ = _get(f"{lab}/api/contents/{folder}/01_weighted_averages/01_weighted_averages.ipynb?content=0")
        assert status == 200, folder


def test_no_instructor_tools_and_no_news(lab):
    status, _, _ = _get(f"{lab}/formgrader")
    assert status == 404, "the formgrader server extension is on"
    status, page, _ = _get(f"{lab}/lab")
    assert status == 200
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                  page, re.S).group(1))
    disabled = set(config.get("disabledExtensions", []))
    assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
            "@jupyterlab/apputils-extension:announcements"} <= disabled
    assert not any("validate" in name or "assignment-list" in name for name in disabled)


def test_start_page_links_resolve():
    text = (ROOT / "START.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert len(links) >= 16
    for link in links:
        assert (ROOT / link).exists(), link
