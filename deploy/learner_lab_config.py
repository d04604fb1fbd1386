"""The learner's JupyterLab: `make lab` loads it (`jupyter lab --config=deploy/learner_lab_config.py`),
and deploy/jupyterhub_config.py gives it to every learner's server.

* start page: START.md, the course map, shown rendered;
* no instructor tools: nbgrader's formgrader, create-assignment and course-list are off (server
  and Lab sides); Validate and the assignment list (fetch, submit) stay;
* no news pop-up (JupyterLab's announcements plugin is off);
* the course folder as the root, with the learner's two folders in view: notebooks/ to work in and
  solutions/ for self-study; the tooling (src/, tests/, autograde/, ...) is hidden.
"""
import os

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))

c.ServerApp.jpserver_extensions = {
    "nbgrader.server_extensions.formgrader": False,
    "nbgrader.server_extensions.course_list": False,
}
# page_config.json (disabled Lab plugins) and overrides.json (Markdown opens rendered)
c.LabApp.app_settings_dir = os.path.join(HERE, "learner-lab-settings")
c.LabApp.default_url = "/lab/tree/START.md"
c.ContentsManager.hide_globs = [
    "__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*.so", "*.dylib", "*~", "*.egg-info",
    "src", "tests", "benchmarks", "autograde", "deploy", "tools", "build",
    "Makefile", "pyproject.toml", "requirements.txt", "environment.yml", "CONTRIBUTING.md",
]
