"""nbgrader configuration for a learner of the attnlab course (fetch, submit, fetch feedback).

nbgrader finds it in any folder of JUPYTER_CONFIG_PATH: deploy/jupyterhub_config.py puts this
folder there for every learner's server; on one machine, copy it to ~/.jupyter/ or to the folder
the learner runs nbgrader from.
"""
import os

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

c.CourseDirectory.course_id = "attnlab"
# The same folder as the instructor's Exchange.root (autograde/nbgrader_config.py).
c.Exchange.root = os.environ.get("ATTNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
