"""JupyterHub for an attnlab class: `jupyterhub -f deploy/jupyterhub_config.py` (as root).

What a course needs on a hub (docs/deploy.md, "Running a class on JupyterHub"):

* the hub's clone of this repository (this file's, e.g. /srv/attnlab), root's, with its .venv
  (`make bootstrap hub-proxy`): the hub and every user's server run from that .venv;
* the course: the instructor's copy at ATTNLAB_COURSE_DIR (default /srv/attnlab-course), owned
  by the instructor's account, not root, so that formgrader, `make release` and `make grade`
  can write its gradebook and folders. `deploy/setup_course.sh INSTRUCTOR` (as root) makes it;
  the hub warns at start when the course is root's;
* the address: ATTNLAB_HUB_URL (default http://127.0.0.1:8000, this machine only); set
  ATTNLAB_HUB_URL=http://0.0.0.0:8000 to serve other machines (behind TLS: a reverse proxy);
* the exchange: ATTNLAB_EXCHANGE (default /srv/nbgrader/exchange, `chmod 777`), the same
  folder for the instructor's nbgrader (autograde/nbgrader_config.py) and every learner's
  (deploy/learner/nbgrader_config.py, on their JUPYTER_CONFIG_PATH), course id `attnlab`;
* instructors (ATTNLAB_INSTRUCTORS, comma-separated; default `instructor`) get a server in the
  course folder with nbgrader's formgrader; everyone else is a learner and gets the learner's
  Lab (deploy/learner_lab_config.py: no formgrader, create-assignment or course list, no news;
  loaded by deploy/learner/jupyter_server_config.py) in their home folder, where
  `nbgrader fetch_assignment` puts the notebooks, opening on START.md (deploy/learner/START.md,
  copied there by that file, running as the learner, when the home has none); instructors open
  on the course's START.md;
* users are the machine's Unix accounts (PAM), each server runs as its user
  (LocalProcessSpawner). ATTNLAB_LEARNERS (comma-separated) limits who may log in.

Everything here is plain JupyterHub configuration; a deployment may load this file and then
change the authenticator or spawner (tests/test_jupyterhub.py does).
"""
import os
import sys

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE_DIR = os.environ.get("ATTNLAB_COURSE_DIR") or "/srv/attnlab-course"
EXCHANGE = os.environ.get("ATTNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
INSTRUCTORS = {u for u in os.environ.get("ATTNLAB_INSTRUCTORS", "instructor").split(",") if u}
LEARNERS = {u for u in os.environ.get("ATTNLAB_LEARNERS", "").split(",") if u}
BIN = os.path.dirname(sys.executable)

# This machine only unless told otherwise: ATTNLAB_HUB_URL=http://0.0.0.0:8000 serves every interface.
c.JupyterHub.bind_url = os.environ.get("ATTNLAB_HUB_URL") or "http://127.0.0.1:8000"
# the proxy from the npm registry, installed by `make hub-proxy` into the hub's .venv/node
c.ConfigurableHTTPProxy.command = [
    os.path.join(sys.prefix, "node", "node_modules", ".bin", "configurable-http-proxy")]

c.Authenticator.admin_users = set(INSTRUCTORS)
if LEARNERS:
    c.Authenticator.allowed_users = INSTRUCTORS | LEARNERS
else:
    c.Authenticator.allow_all = True  # every account of the machine

c.Spawner.cmd = [os.path.join(BIN, "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {
    # nbgrader, attnlab-course and jupyter from the hub's .venv in every terminal
    "PATH": os.pathsep.join([BIN, "/usr/local/bin", "/usr/bin", "/bin"]),
    "ATTNLAB_EXCHANGE": EXCHANGE,
    "ATTNLAB_COURSE_ROOT": COURSE_DIR,
    "OMP_NUM_THREADS": "1",  # many learners share the cores: one thread each
}


def _pre_spawn(spawner):
    """Instructors: the course folder, formgrader on. Learners: their home, the learner's Lab."""
    env = dict(spawner.environment)
    if spawner.user.name in INSTRUCTORS:
        spawner.notebook_dir = COURSE_DIR
        if os.path.isfile(os.path.join(COURSE_DIR, "START.md")):
            spawner.default_url = "/lab/tree/START.md"
        # nbgrader (and formgrader) read the course's configuration from autograde/
        env["JUPYTER_CONFIG_PATH"] = os.path.join(COURSE_DIR, "autograde")
        # attnlab.course.formgrader_pages: formgrader's own pages print ids as text
        spawner.args = list(spawner.args) + ["--ServerApp.jpserver_extensions="
                                             "{'nbgrader.server_extensions.formgrader': True, "
                                             "'attnlab.course.formgrader_pages': True}"]
    else:
        spawner.notebook_dir = "~"
        # deploy/learner: the learner's nbgrader_config.py, and jupyter_server_config.py, which
        # loads the learner's Lab (learner_lab_config.py) and puts the start page
        # (deploy/learner/START.md) in the home folder
        env["JUPYTER_CONFIG_PATH"] = os.path.join(HERE, "learner")
        spawner.default_url = "/lab/tree/START.md"
    spawner.environment = env


c.Spawner.pre_spawn_hook = _pre_spawn


def _check_course_owner() -> None:
    """Say so at start when the course is root's (or missing): an instructor's server runs as
    the instructor, and formgrader could not save a grade (HTTP 500) in a root-owned gradebook."""
    try:
        owner = os.stat(os.path.join(COURSE_DIR, "autograde")).st_uid
    except OSError:
        sys.stderr.write(f"attnlab: warning: no course at {COURSE_DIR} (ATTNLAB_COURSE_DIR): as root, "
                         "run deploy/setup_course.sh INSTRUCTOR to make the instructor's copy\n")
        return
    if owner == 0 and "root" not in INSTRUCTORS:
        sys.stderr.write(f"attnlab: warning: the course {COURSE_DIR} belongs to root: instructors' grade "
                         "edits in formgrader will fail; run deploy/setup_course.sh INSTRUCTOR "
                         f"{COURSE_DIR} (as root) to hand it to the instructor's account\n")


_check_course_owner()

# One hub process, its proxy and sqlite database serve a class of a few hundred learners; the
# limit is the machine: each running server is a Python process (about 100 MB idle, 1-2 GB while
# a notebook trains), so size memory for the learners active at once, and cull idle servers.
c.JupyterHub.db_url = os.environ.get("ATTNLAB_HUB_DB", "sqlite:///jupyterhub.sqlite")
