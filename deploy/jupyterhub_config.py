"""JupyterHub for an attnlab class: `jupyterhub -f deploy/jupyterhub_config.py` (as root).

What a course needs on a hub (README, "Running a class on JupyterHub"):

* the course: one clone of this repository, the instructor's, at ATTNLAB_COURSE_DIR
  (default /srv/attnlab), with its .venv (`make bootstrap`); the hub runs from that .venv;
* the exchange: ATTNLAB_EXCHANGE (default /srv/nbgrader/exchange, `chmod 777`), the same
  folder for the instructor's nbgrader (autograde/nbgrader_config.py) and every learner's
  (deploy/learner/nbgrader_config.py, on their JUPYTER_CONFIG_PATH), course id `attnlab`;
* instructors (ATTNLAB_INSTRUCTORS, comma-separated; default `instructor`) get a server in the
  course folder with nbgrader's formgrader; everyone else is a learner and gets the learner's
  Lab (deploy/learner_lab_config.py: no formgrader, create-assignment or course list, no news)
  in their home folder, where `nbgrader fetch_assignment` puts the notebooks;
* users are the machine's Unix accounts (PAM), each server runs as its user
  (LocalProcessSpawner). ATTNLAB_LEARNERS (comma-separated) limits who may log in.

Everything here is plain JupyterHub configuration; a deployment may load this file and then
change the authenticator or spawner (tests/test_jupyterhub.py does).
"""
import os
import sys

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE_DIR = os.environ.get("ATTNLAB_COURSE_DIR") or os.path.dirname(HERE)
EXCHANGE = os.environ.get("ATTNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
INSTRUCTORS = {u for u in os.environ.get("ATTNLAB_INSTRUCTORS", "instructor").split(",") if u}
LEARNERS = {u for u in os.environ.get("ATTNLAB_LEARNERS", "").split(",") if u}
BIN = os.path.dirname(sys.executable)

c.JupyterHub.bind_url = os.environ.get("ATTNLAB_HUB_URL", "http://0.0.0.0:8000")
# the proxy from the npm registry, installed by `make hub-proxy` into .venv/node
c.ConfigurableHTTPProxy.command = [
    os.path.join(COURSE_DIR, ".venv", "node", "node_modules", ".bin", "configurable-http-proxy")]

c.Authenticator.admin_users = set(INSTRUCTORS)
if LEARNERS:
    c.Authenticator.allowed_users = INSTRUCTORS | LEARNERS
else:
    c.Authenticator.allow_all = True  # every account of the machine

c.Spawner.cmd = [os.path.join(BIN, "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {
    "ATTNLAB_EXCHANGE": EXCHANGE,
    "ATTNLAB_COURSE_ROOT": COURSE_DIR,
    "OMP_NUM_THREADS": "1",  # many learners share the cores: one thread each
}


def _pre_spawn(spawner):
    """Instructors: the course folder, formgrader on. Learners: their home, the learner's Lab."""
    env = dict(spawner.environment)
    if spawner.user.name in INSTRUCTORS:
        spawner.notebook_dir = COURSE_DIR
        # nbgrader (and formgrader) read the course's configuration from autograde/
        env["JUPYTER_CONFIG_PATH"] = os.path.join(COURSE_DIR, "autograde")
        spawner.args = list(spawner.args) + ["--ServerApp.jpserver_extensions="
                                             "{'nbgrader.server_extensions.formgrader': True}"]
    else:
        spawner.notebook_dir = "~"
        env["JUPYTER_CONFIG_PATH"] = os.path.join(HERE, "learner")
        spawner.args = list(spawner.args) + [f"--config={os.path.join(HERE, 'learner_lab_config.py')}",
                                             "--LabApp.default_url=/lab"]
    spawner.environment = env


c.Spawner.pre_spawn_hook = _pre_spawn

# One hub process, its proxy and sqlite database serve a class of a few hundred learners; the
# limit is the machine: each running server is a Python process (about 100 MB idle, 1-2 GB while
# a notebook trains), so size memory for the learners active at once, and cull idle servers.
c.JupyterHub.db_url = os.environ.get("ATTNLAB_HUB_DB", "sqlite:///jupyterhub.sqlite")
