"""Tests of deploy/: a real JupyterHub (from PyPI) with its proxy (from the npm registry,
`make hub-proxy`), an instructor and a learner.

* the smoke test: the hub serves; the instructor's server has nbgrader's formgrader; the
  learner's has not, and its Lab has the instructor tools off. Its overlay keeps the course's
  configuration and swaps only what a test machine needs: a dummy password instead of PAM, and
  servers run as the hub's own user (SimpleLocalProcessSpawner) instead of one Unix account each;
* as root: the instructor and the learner are real Unix accounts made for the test (servers
  spawned as them, the configuration's own LocalProcessSpawner), the course is made by
  deploy/setup_course.sh and owned by the instructor, and a grade edited through formgrader's
  REST API, through the hub, is saved and read back; the learner's Lab opens on START.md;
* the configuration read as traitlets reads it: the hub listens on 127.0.0.1 unless
  ATTNLAB_HUB_URL says otherwise.
"""
from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
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
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.JupyterHub.services = [{{"name": "smoke", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "smoke", "services": ["smoke"],
    "scopes": ["admin:users", "admin:servers", "access:servers", "read:users"]}}]
"""
# the smoke test: every server as the hub's own user, in a home under the test's folder
ONE_USER = """
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = "{tmp}/home/{{username}}"
c.Spawner.args = ["--allow-root"]
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, str]:
    headers = {"Authorization": f"token {TOKEN}"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    req = urllib.request.Request(url, method=method, headers=headers, data=data)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _location(url: str) -> tuple[int, str]:
    """The status and Location of ``url``, redirects not followed."""
    req = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    try:
        with urllib.request.build_opener(_NoRedirect).open(req, timeout=60) as resp:
            return resp.status, resp.headers.get("Location", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


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


# Where this Python lives under a folder only root may enter (pyenv in /root, as on CI machines),
# an account cannot run it: each server then still runs as its account (setpriv instead of the
# spawner's setuid), keeping one capability, to look up and read files, not to write them; what
# it writes (the gradebook) and where stay the account's. Otherwise the spawner is the configuration's.
READ_ANYWHERE = """
from jupyterhub.spawner import LocalProcessSpawner


class ReadAnywhereSpawner(LocalProcessSpawner):
    def make_preexec_fn(self, name):
        import os, pwd
        home = pwd.getpwnam(name).pw_dir
        return lambda: os.chdir(home)


c.JupyterHub.spawner_class = ReadAnywhereSpawner
_course_hook = c.Spawner.pre_spawn_hook


def _as_account(spawner):
    _course_hook(spawner)
    name = spawner.user.name
    spawner.cmd = ["setpriv", "--reuid=" + name, "--regid=" + name, "--init-groups",
                   "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"] + list(spawner.cmd)


c.Spawner.pre_spawn_hook = _as_account
"""


def _can_run_python(name: str) -> bool:
    return subprocess.run(["runuser", "-u", name, "--", sys.executable, "-c", "pass"], capture_output=True).returncode == 0


class _Hub:
    """A running hub with the course's configuration and ``overlay`` on top."""

    def __init__(self, folder: Path, env: dict[str, str], extra: str = "") -> None:
        if shutil.which("node") is None or not PROXY.exists():
            pytest.skip("no configurable-http-proxy: `make hub-proxy` installs it from the npm registry (needs node)")
        pytest.importorskip("jupyterhub")
        self.folder, self.env, self.extra = folder, env, extra

    def __enter__(self) -> "_Hub":
        port, hub_port, proxy_port = _free_port(), _free_port(), _free_port()
        config = self.folder / "jupyterhub_config.py"
        fmt = dict(config=str(ROOT / "deploy" / "jupyterhub_config.py"), port=port, hub_port=hub_port,
                   proxy_port=proxy_port, proxy=str(PROXY), tmp=self.folder, token=TOKEN)
        config.write_text(OVERLAY.format(**fmt) + self.extra.format(**fmt))
        env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"], **self.env)
        env.pop("JUPYTER_CONFIG_DIR", None)
        env.pop("ATTNLAB_HUB_URL", None)
        self.log = self.folder / "hub.log"
        with open(self.log, "w") as fh:
            self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=self.folder,
                                         env=env, stdout=fh, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{port}"
        try:
            self.wait("the hub's API", lambda: _call(f"{self.base}/hub/api/")[0] == 200)
        except BaseException:
            self.__exit__()
            raise
        return self

    def wait(self, what: str, check, seconds: float = 180) -> None:
        _wait(what, check, self.proc, self.log, seconds)

    def start_servers(self, *users: str) -> None:
        for user in users:
            assert _call(f"{self.base}/hub/api/users/{user}", "POST")[0] in (201, 409)
            status, text = _call(f"{self.base}/hub/api/users/{user}/server", "POST")
            assert status in (201, 202), f"{user}'s server: {status} {text}; hub log: {self.log.read_text()[-4000:]}"
        for user in users:
            self.wait(f"{user}'s server", lambda: json.loads(_call(f"{self.base}/hub/api/users/{user}")[1])
                      .get("servers", {}).get("", {}).get("ready"))
            assert _call(f"{self.base}/user/{user}/api/status")[0] == 200

    def __exit__(self, *exc) -> None:
        self.proc.terminate()  # the hub stops the servers it started
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def test_hub_serves_formgrader_to_instructors_only(tmp_path):
    env = dict(ATTNLAB_INSTRUCTORS="teacher", ATTNLAB_LEARNERS="learner",
               ATTNLAB_EXCHANGE=str(tmp_path / "exchange"), ATTNLAB_COURSE_DIR=str(ROOT))
    with _Hub(tmp_path, env, ONE_USER) as hub:
        base = hub.base
        status, page = _call(f"{base}/hub/login")
        assert status == 200 and "<form" in page, "the hub does not serve its login page"
        hub.start_servers("teacher", "learner")
        status, _ = _call(f"{base}/user/teacher/formgrader/")
        assert status == 200, "the instructor's server has no formgrader"
        status, _ = _call(f"{base}/user/learner/formgrader/")
        assert status == 404, "the learner's server has the formgrader"
        status, page = _call(f"{base}/user/learner/lab")
        assert status == 200
        data = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                    page, re.S).group(1))
        assert "@jupyter/nbgrader:formgrader" in data.get("disabledExtensions", [])


def _load_config(env: dict[str, str]):
    from traitlets.config.loader import PyFileConfigLoader

    saved = dict(os.environ)
    try:
        for key in [k for k in os.environ if k.startswith("ATTNLAB_")]:
            del os.environ[key]
        os.environ.update(env)
        return PyFileConfigLoader("jupyterhub_config.py", path=str(ROOT / "deploy")).load_config()
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_hub_listens_on_this_machine_unless_told(tmp_path, capsys):
    from types import SimpleNamespace

    config = _load_config({"ATTNLAB_COURSE_DIR": str(tmp_path)})
    assert config.JupyterHub.bind_url == "http://127.0.0.1:8000", "by default the hub serves this machine only"
    assert "no course at" in capsys.readouterr().err
    (tmp_path / "autograde").mkdir()
    _load_config({"ATTNLAB_COURSE_DIR": str(tmp_path), "ATTNLAB_INSTRUCTORS": "alice"})
    if os.geteuid() == 0:  # a course of root's: formgrader could not save, and the hub says so
        assert "belongs to root" in capsys.readouterr().err
    config = _load_config({"ATTNLAB_HUB_URL": "http://0.0.0.0:8443", "ATTNLAB_COURSE_DIR": str(tmp_path)})
    assert config.JupyterHub.bind_url == "http://0.0.0.0:8443"
    # every server has the hub's tools on its PATH; learners open on START.md
    config = _load_config({"ATTNLAB_COURSE_DIR": str(tmp_path), "ATTNLAB_INSTRUCTORS": "alice"})
    assert config.Spawner.environment["PATH"].split(os.pathsep)[0] == os.path.dirname(sys.executable)
    spawner = SimpleNamespace(user=SimpleNamespace(name="bob"), environment=dict(config.Spawner.environment),
                              args=[], default_url="/lab", notebook_dir="")
    config.Spawner.pre_spawn_hook(spawner)
    assert spawner.default_url == "/lab/tree/START.md" and spawner.notebook_dir == "~"
    assert spawner.environment["JUPYTER_CONFIG_PATH"] == str(ROOT / "deploy" / "learner")
    assert (ROOT / "deploy" / "learner" / "START.md").is_file()


def _useradd(name: str, home: Path) -> pwd.struct_passwd:
    subprocess.run(["useradd", "--create-home", "--home-dir", str(home), "--user-group", "--shell", "/bin/sh", name],
                   check=True, capture_output=True)
    return pwd.getpwnam(name)


def _userdel(name: str) -> None:
    import psutil

    try:
        uid = pwd.getpwnam(name).pw_uid
    except KeyError:
        return
    # what the test started as that account (its servers, should the hub have left any)
    for proc in psutil.process_iter(["uids"]):
        if proc.info["uids"] and proc.info["uids"].real == uid:
            try:
                proc.kill()
            except psutil.Error:
                pass
    subprocess.run(["userdel", name], capture_output=True)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root: makes two Unix accounts (useradd) and a hub that spawns servers as them")
def test_non_root_instructor_saves_a_grade_in_formgrader(monkeypatch):
    from nbgrader.api import Gradebook

    if shutil.which("useradd") is None:
        pytest.skip("no useradd on this machine: the test makes the instructor's and the learner's accounts")
    # not under pytest's tmp_path: that is root's alone (0700), and the accounts must reach their homes
    folder = Path(tempfile.mkdtemp(prefix="attnlab-hub-"))
    folder.chmod(0o755)
    suffix = f"{os.getpid() % 100000}"
    teacher, learner = f"attnlab_i{suffix}", f"attnlab_l{suffix}"
    course, exchange = folder / "course", folder / "exchange"
    try:
        t = _useradd(teacher, folder / "home" / teacher)
        ln = _useradd(learner, folder / "home" / learner)
        env = dict(os.environ, ATTNLAB_EXCHANGE=str(exchange))
        setup = [str(ROOT / "deploy" / "setup_course.sh"), teacher, str(course)]
        proc = subprocess.run(setup, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert course.stat().st_uid == t.pw_uid and (course / "autograde").stat().st_uid == t.pw_uid
        assert (course / ".venv").resolve() == (ROOT / ".venv").resolve()
        assert oct(exchange.stat().st_mode & 0o777) == "0o777"
        assert course.stat().st_mode & 0o007 == 0, "other accounts (learners) must not read the course"
        if shutil.which("make") and (ROOT / ".venv" / ".attnlab-installed").is_file():
            # `make grade` in the course uses the hub's environment as it is, installing nothing
            assert subprocess.run(["make", "-q", "-C", str(course), "bootstrap"], capture_output=True).returncode == 0

        # root makes the gradebook (as a `make release` run as root would): the course is root's again ...
        monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
        db = course / "autograde" / "gradebook.db"
        with Gradebook(f"sqlite:///{db}") as gb:
            gb.add_assignment("01_weighted_averages")
            gb.add_notebook("01_weighted_averages", "01_weighted_averages")
            gb.add_grade_cell("softmax_basic", "01_weighted_averages", "01_weighted_averages", max_score=2.0,
                              cell_type="code")
            gb.add_student("alice")
            gb.add_submission("01_weighted_averages", "alice")
            grade = gb.find_grade("softmax_basic", "01_weighted_averages", "01_weighted_averages", "alice")
            grade.auto_score = 0.0
            gb.db.commit()
            grade_id = grade.id
        assert db.stat().st_uid == 0
        # ... and running the set-up again hands it back to the instructor
        proc = subprocess.run(setup, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert db.stat().st_uid == t.pw_uid

        hub_env = dict(ATTNLAB_INSTRUCTORS=teacher, ATTNLAB_LEARNERS=learner, ATTNLAB_EXCHANGE=str(exchange),
                       ATTNLAB_COURSE_DIR=str(course))
        hub_folder = folder / "hub"
        hub_folder.mkdir()
        extra = "" if _can_run_python(teacher) else READ_ANYWHERE
        if extra and shutil.which("setpriv") is None:
            pytest.skip("this Python is out of the test accounts' reach and there is no setpriv to lend them read access")
        with _Hub(hub_folder, hub_env, extra) as hub:  # one account per server
            hub.start_servers(teacher, learner)
            assert "belongs to root" not in hub.log.read_text()
            url = f"{hub.base}/user/{teacher}/formgrader/api/grade/{grade_id}"
            status, text = _call(url, "PUT", {"manual_score": 1.5, "extra_credit": None})
            assert status == 200, f"formgrader did not save the grade: {status} {text[-2000:]}"
            assert json.loads(text)["manual_score"] == 1.5
            status, text = _call(url)
            assert status == 200 and json.loads(text)["manual_score"] == 1.5, text[-2000:]
            with Gradebook(f"sqlite:///{db}") as gb:
                saved = gb.find_grade("softmax_basic", "01_weighted_averages", "01_weighted_averages", "alice")
                assert (saved.manual_score, saved.score) == (1.5, 1.5)

            # the learner's server runs as the learner and opens on the course's start page
            status, where = _location(f"{hub.base}/user/{learner}/")
            assert status in (301, 302, 303), (status, where)
            assert urllib.parse.urlsplit(where).path == f"/user/{learner}/lab/tree/START.md", where
            start = folder / "home" / learner / "START.md"
            assert start.read_bytes() == (ROOT / "deploy" / "learner" / "START.md").read_bytes()
            assert start.stat().st_uid == ln.pw_uid
            assert _call(f"{hub.base}/user/{learner}/api/contents/START.md")[0] == 200
            assert _call(f"{hub.base}/user/{learner}/formgrader/")[0] == 404
    finally:
        _userdel(teacher)
        _userdel(learner)
        shutil.rmtree(folder, ignore_errors=True)
