"""Smoke test of deploy/jupyterhub_config.py: a real JupyterHub (from PyPI) with its proxy (from the
npm registry, `make hub-proxy`), an instructor and a learner. The hub serves; the instructor's
server has nbgrader's formgrader; the learner's has not, and its Lab has the instructor tools off.

The overlay below keeps the course's configuration and swaps only what a test machine needs:
a dummy password instead of PAM, and servers run as the hub's own user (SimpleLocalProcessSpawner)
instead of one Unix account each.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from coursekit import ROOT

pytestmark = pytest.mark.notebooks

PROXY = ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
TOKEN = "attnlab-hub-smoke-test-token-0123456789"

OVERLAY = """
import os
load_subconfig({config!r})
c = get_config()
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///{tmp}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{tmp}/cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "smoke-test"
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = "{tmp}/home/{{username}}"
c.Spawner.args = ["--allow-root"]
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.JupyterHub.services = [{{"name": "smoke", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "smoke", "services": ["smoke"],
    "scopes": ["admin:users", "admin:servers", "access:servers", "read:users"]}}]
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url: str, method: str = "GET") -> tuple[int, str]:
    req = urllib.request.Request(url, method=method, headers={"Authorization": f"token {TOKEN}"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _wait(what: str, check, proc: subprocess.Popen, log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the hub exited ({proc.returncode}): {log.read_text()[-4000:]}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(1)
    raise AssertionError(f"{what}: not within {seconds:.0f} s; hub log: {log.read_text()[-4000:]}")


def test_hub_serves_formgrader_to_instructors_only(tmp_path):
    if shutil.which("node") is None or not PROXY.exists():
        pytest.skip("no configurable-http-proxy: `make hub-proxy` installs it from the npm registry (needs node)")
    pytest.importorskip("jupyterhub")
    port, hub_port, proxy_port = _free_port(), _free_port(), _free_port()
    config = tmp_path / "jupyterhub_config.py"
    config.write_text(OVERLAY.format(config=str(ROOT / "deploy" / "jupyterhub_config.py"), port=port,
                                     hub_port=hub_port, proxy_port=proxy_port, proxy=str(PROXY), tmp=tmp_path,
                                     token=TOKEN))
    env = dict(os.environ, ATTNLAB_INSTRUCTORS="teacher", ATTNLAB_LEARNERS="learner",
               ATTNLAB_EXCHANGE=str(tmp_path / "exchange"), ATTNLAB_COURSE_DIR=str(ROOT),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    env.pop("JUPYTER_CONFIG_DIR", None)
    log = tmp_path / "hub.log"
    with open(log, "w") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=tmp_path, env=env,
                                stdout=fh, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait("the hub's API", lambda: _call(f"{base}/hub/api/")[0] == 200, proc, log)
        status, page = _call(f"{base}/hub/login")
        assert status == 200 and "<form" in page, "the hub does not serve its login page"
        for user in ("teacher", "learner"):
            assert _call(f"{base}/hub/api/users/{user}", "POST")[0] in (201, 409)
            assert _call(f"{base}/hub/api/users/{user}/server", "POST")[0] in (201, 202)
        for user in ("teacher", "learner"):
            _wait(f"{user}'s server", lambda: json.loads(_call(f"{base}/hub/api/users/{user}")[1])
                  .get("servers", {}).get("", {}).get("ready"), proc, log)
            assert _call(f"{base}/user/{user}/api/status")[0] == 200
        status, _ = _call(f"{base}/user/teacher/formgrader/")
        assert status == 200, "the instructor's server has no formgrader"
        status, _ = _call(f"{base}/user/learner/formgrader/")
        assert status == 404, "the learner's server has the formgrader"
        status, page = _call(f"{base}/user/learner/lab")
        assert status == 200
        data = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                    page, re.S).group(1))
        assert "@jupyter/nbgrader:formgrader" in data.get("disabledExtensions", [])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
