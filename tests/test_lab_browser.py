"""JupyterLab itself, driven in a real headless Chromium: the server started as `make lab` starts
it, notebook 01 opened, a wrong `softmax` (no max subtraction) typed into its exercise cell and
run against its check cell. The learner must see the check's message, naming the mistake, and
not a Python traceback (README, "How an exercise works").

Skips where no Chromium is installed (a laptop); `.ci/run` installs Debian's.
"""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from attnlab.course import site as sitelib
from coursekit import RELEASE
from test_lab import stop

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("site")]  # the browser tests share a worker

try:
    import playwright.sync_api  # noqa: F401
    _PLAYWRIGHT = True
except ImportError:  # pragma: no cover
    _PLAYWRIGHT = False

if not _PLAYWRIGHT or sitelib.find_chromium() is None:
    pytest.skip("no headless Chromium here (Debian: apt-get install chromium; .ci/run installs it in CI)",
                allow_module_level=True)

NOTEBOOK = "01_weighted_averages"
WRONG_SOFTMAX = (
    "def softmax(x, axis=-1):\n"
    "    e = np.exp(x)\n"
    "    return e / e.sum(axis=axis, keepdims=True)\n"
)
STARTUP_S = 300  # limits for a runaway server or kernel, far above the time taken (~20 s, ~5 s)
RUN_S = 300


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """`make lab`'s command (jupyter lab --no-browser on 127.0.0.1, root_dir=notebooks, with a
    token) on a free port, in a scratch copy of the notebook so that autosave touches nothing."""
    root = tmp_path / "notebooks"
    shutil.copytree(RELEASE / NOTEBOOK, root / NOTEBOOK)
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    cmd = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
           "--ServerApp.port_retries=0", "--LabApp.news_url=", "--LabApp.check_for_updates_class="
           "jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # as the Makefile's ROOT_FLAG
    log = open(tmp_path / "lab.log", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_S
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("jupyter lab did not start:\n" + (tmp_path / "lab.log").read_text()[-3000:])
                time.sleep(0.5)
        yield base, token, root
    finally:
        stop(proc)
        log.close()


def _cell(tab, text: str):
    return tab.locator(".jp-Notebook .jp-Cell").filter(has_text=text).first


def _run(tab, cell) -> None:
    """Select the cell by its prompt (command mode), run it, wait until it has run."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    prompt = cell.locator(".jp-InputArea-prompt").first
    before = prompt.inner_text()
    handle = prompt.element_handle()
    deadline = time.monotonic() + RUN_S
    while True:
        # On a loaded machine the first key press can land before the notebook has focus (the
        # Lab is still settling): select the cell again and press again until the cell has run.
        # Running a cell twice is harmless here (imports, a definition, a check).
        prompt.click()
        tab.keyboard.press("Control+Enter")  # run the selected cell, stay on it
        try:
            tab.wait_for_function(
                "([el, before]) => /\\[\\d+\\]/.test(el.textContent) && el.textContent !== before",
                arg=[handle, before], timeout=min(60.0, max(1.0, deadline - time.monotonic())) * 1000,
            )
            return
        except PlaywrightTimeout:
            if time.monotonic() >= deadline:
                raise


def test_wrong_softmax_shows_the_check_message_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright

    base, token, _ = lab
    with sync_playwright() as p:
        browser = sitelib.launch_browser(p)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            tab.set_default_timeout(STARTUP_S * 1000)
            tab.goto(f"{base}/lab/tree/{NOTEBOOK}/{NOTEBOOK}.ipynb?token={token}")
            tab.wait_for_selector(".jp-NotebookPanel .jp-Cell")
            # a kernel is attached and idle before anything runs
            tab.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached")

            _run(tab, _cell(tab, "from attnlab.checks import ("))  # the setup cell: imports

            exercise = _cell(tab, "def softmax(x, axis=-1):")
            editor = exercise.locator(".cm-content")
            editor.click()
            tab.keyboard.press("Control+a")
            tab.keyboard.press("Delete")
            tab.keyboard.insert_text(WRONG_SOFTMAX)  # one text input: no auto-closed brackets
            assert "np.exp(x)" in editor.inner_text()
            tab.keyboard.press("Escape")
            _run(tab, exercise)
            assert not exercise.locator(".jp-OutputArea-output").count(), "defining softmax printed something"

            check = _cell(tab, "check_softmax_stable(softmax)")
            _run(tab, check)
            text = check.locator(".jp-Cell-outputArea").inner_text()
        finally:
            browser.close()

    assert "softmax is not right yet" in text, f"the check's message is not shown; the output reads:\n{text}"
    assert "no max subtraction" in text, f"the mistake is not named; the output reads:\n{text}"
    assert "Traceback" not in text and "----> " not in text, f"a traceback is shown:\n{text}"
