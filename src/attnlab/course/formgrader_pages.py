"""A Jupyter server extension: formgrader's own pages print ids as text.

nbgrader 0.9.6's formgrader renders its list pages (manage assignments and submissions, the
gradebook, manage students) with a Jinja environment whose autoescape is off, and those pages
print the student id, assignment and notebook names taken from the URL: in the page
(breadcrumbs, the autograde command) and in double-quoted JavaScript strings
(``var student_id = "{{ student_id }}";``). A student id such as ``<img src=x onerror=...>`` in
a link from the student list would run in the instructor's browser.

This extension replaces that environment, once nbgrader's extension has made it, by one that
reads the same templates with autoescape on and every ``"{{ name }}"`` inside a ``<script>``
block turned into ``{{ name|tojson }}`` (a JavaScript string in which ``<``, ``>``, ``&`` and
``'`` are escaped, so it cannot close the string or the script); the ids the scripts put in
URLs are percent-encoded first. The rows the pages fill in from formgrader's JSON API are built with
jQuery's ``.text()`` by nbgrader and need nothing.

Enable it next to nbgrader's formgrader (deploy/jupyterhub_config.py does)::

    --ServerApp.jpserver_extensions="{'nbgrader.server_extensions.formgrader': True,
                                      'attnlab.course.formgrader_pages': True}"
"""
from __future__ import annotations

import re
import urllib.parse

from jinja2 import Environment, FileSystemLoader

SETTING = "nbgrader_jinja2_env"
_SCRIPT = re.compile(r"(<script>)(.*?)(</script>)", re.S)
_JS_STRING = re.compile(r'"\{\{\s*(\w+)\s*\}\}"')


# The pages' scripts use these only to build URLs (``".../api/student_submissions/" + student_id``):
# they get the id as one URL path segment, so that an id with ``/``, ``\``, ``?`` or ``#`` still
# names its own student's rows.
URL_IDS = ("student_id", "assignment_id", "notebook_id")


def _script_string(m: re.Match) -> str:
    return "{{ %s%s|tojson }}" % (m[1], "|path_segment" if m[1] in URL_IDS else "")


def script_strings_as_json(source: str) -> str:
    """``"{{ name }}"`` inside each ``<script>...</script>`` of a template as ``{{ name|tojson }}``
    (``{{ name|path_segment|tojson }}`` for the ids in ``URL_IDS``)."""
    return _SCRIPT.sub(lambda m: m[1] + _JS_STRING.sub(_script_string, m[2]) + m[3], source)


class _Loader(FileSystemLoader):
    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        return script_strings_as_json(source), filename, uptodate


def escaping_environment(searchpath) -> Environment:
    """formgrader's templates (from ``searchpath``), autoescaped, script strings as JSON."""
    env = Environment(loader=_Loader(searchpath), autoescape=True)
    env.filters["path_segment"] = lambda value: urllib.parse.quote(str(value), safe="")
    env.attnlab_escaping = True
    return env


def patch_settings(settings: dict) -> bool:
    """Swap formgrader's environment in ``settings`` for the escaping one; True when it is (now) swapped."""
    env = settings.get(SETTING)
    if env is None:
        return False
    if not getattr(env, "attnlab_escaping", False):
        settings[SETTING] = escaping_environment(list(env.loader.searchpath))
    return True


def _jupyter_server_extension_points():
    return [{"module": "attnlab.course.formgrader_pages"}]


def _load_jupyter_server_extension(serverapp):
    # Extensions load in name order, so nbgrader's formgrader usually makes its environment after
    # this one loads: swap it now if it is there, and again when the extensions start (before
    # the server handles a request).
    patch_settings(serverapp.web_app.settings)


async def _start_jupyter_server_extension(serverapp):
    if patch_settings(serverapp.web_app.settings):
        serverapp.log.info("attnlab: formgrader's pages print ids as text")
    else:
        serverapp.log.warning("attnlab.course.formgrader_pages: nbgrader's formgrader is not loaded")
