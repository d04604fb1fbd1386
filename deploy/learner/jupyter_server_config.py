"""The learner's Jupyter server on the course's JupyterHub: deploy/jupyterhub_config.py puts this
folder on every learner's JUPYTER_CONFIG_PATH, so their server loads this file.

* the learner's Lab: deploy/learner_lab_config.py (as `make lab` has it: no instructor tools,
  no news);
* the start page: the server runs as the learner, in their home folder; this puts the course's
  start page there (START.md, next to this file) when the home has none, and the hub opens the
  learner's Lab on /lab/tree/START.md. An existing START.md, the learner's own or an earlier
  copy, is left as it is.
"""
import os

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))
load_subconfig(os.path.join(os.path.dirname(HERE), "learner_lab_config.py"))  # noqa: F821


def _start_page() -> None:
    target = os.path.join(os.path.expanduser("~"), "START.md")
    try:
        with open(os.path.join(HERE, "START.md"), "rb") as fh:
            text = fh.read()
        # O_EXCL: never through a link, never over a file that is there
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return
    with os.fdopen(fd, "wb") as out:
        out.write(text)


_start_page()
