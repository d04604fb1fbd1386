"""nbgrader configuration for a learner of the attnlab course (fetch, submit, fetch feedback).

Install it where the learner's nbgrader finds it: on JupyterHub, once for every learner in
/etc/jupyter/nbgrader_config.py (deploy/jupyterhub_config.py does); on one machine, in
~/.jupyter/nbgrader_config.py or in the folder the learner runs nbgrader from.
"""
import os

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

c.CourseDirectory.course_id = "attnlab"
# The same folder as the instructor's Exchange.root (autograde/nbgrader_config.py).
c.Exchange.root = os.environ.get("ATTNLAB_EXCHANGE") or "/srv/nbgrader/exchange"
