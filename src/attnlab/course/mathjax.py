"""MathJax served from disk, so that the course's HTML (site, handouts, feedback) shows its maths
with no network.

nbconvert's and nbgrader's HTML load MathJax 2.7 from a CDN (`cdnjs.cloudflare.com`), so offline
every equation stays raw `$...$`. The `jupyter-server-mathjax` package (a pinned dependency)
ships MathJax 2.7's static files: the combined `TeX-AMS-MML_HTMLorMML-full` configuration (TeX
input, HTML-CSS output) and the STIX-Web fonts. This module finds those files, copies them next
to the HTML, and rewrites the pages to load them through a *relative* URL, which works from a
web server and from `file://` alike.

    from attnlab.course.mathjax import localise_html_file
    localise_html_file(page, mathjax_root=feedback_dir / "mathjax")   # copies once, rewrites page

Fonts: only STIX-Web is shipped (MathJax's default TeX fonts are not), so the pages say so
(`HTML_CSS_CONFIG`); without it MathJax looks for the missing TeX web fonts.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

__all__ = [
    "MATHJAX_CONFIG",
    "mathjax_dir",
    "copy_mathjax",
    "mathjax_src",
    "mathjax_head",
    "localise_mathjax",
    "localise_html_file",
]

# The one combined configuration jupyter-server-mathjax ships, plus the Safe extension (no
# javascript: links or styles smuggled in through \href or \style in a learner's markdown).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"

# Read by MathJax before it typesets (a text/x-mathjax-config block). STIX-Web is the only web
# font on disk; no image fonts; no local-font probing, so every machine renders the same.
# MathJax's probe font "MathJax_Blank" is declared as url('about:blank'), which Chromium reports
# as a failed, CORS-blocked font load on file:// pages; local() gives the same missing font with
# no request. Likewise the TeX .otf fonts that the NativeMML output declares for double-struck,
# script and fraktur letters: they are not shipped, and Chromium, which renders MathML, would
# fetch them for the hidden MathML copy that MathJax adds for screen readers (AssistiveMML).
HTML_CSS_CONFIG = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({
    "HTML-CSS": {
        availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null,
        styles: {"@font-face": {"font-family": "MathJax_Blank", src: "local('MathJax_Blank')"}}
    },
    NativeMML: {styles: {
        "@font-face /*1*/": {src: "local('MathJax_Caligraphic')"},
        "@font-face /*2*/": {src: "local('MathJax_Caligraphic')"},
        "@font-face /*3*/": {src: "local('MathJax_AMS')"},
        "@font-face /*4*/": {src: "local('MathJax_Script')"},
        "@font-face /*5*/": {src: "local('MathJax_Fraktur')"},
        "@font-face /*6*/": {src: "local('MathJax_Fraktur')"}
    }},
    messageStyle: "none"
});
</script>"""

_STAMP = ".attnlab-mathjax"

# A <script src=...> whose URL loads MathJax (MathJax.js, latest.js, tex-*.js), with its query.
_LOADER = re.compile(
    r"""<script\b[^>]*\bsrc\s*=\s*["'][^"']*mathjax[^"']*["'][^>]*>\s*</script>""",
    re.IGNORECASE,
)
# nbconvert's pages also load require.js from a CDN (for widgets; the course has none).
_REMOTE_REQUIRE = re.compile(
    r"""<script\b[^>]*\bsrc\s*=\s*["']https?://[^"']*require(\.min)?\.js["'][^>]*>\s*</script>\s*""",
    re.IGNORECASE,
)


def mathjax_dir() -> Path:
    """The folder holding `MathJax.js` (MathJax 2.7, from the jupyter-server-mathjax package).

    Raises RuntimeError naming the package to install when it is missing.
    """
    try:
        import jupyter_server_mathjax
    except ImportError as exc:  # pragma: no cover - a broken install
        raise RuntimeError(
            "offline MathJax needs the jupyter-server-mathjax package "
            "(pinned in requirements.txt; `make bootstrap` installs it)"
        ) from exc
    static = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
    if not (static / "MathJax.js").is_file():
        raise RuntimeError(f"expected MathJax.js in {static}, got no such file; reinstall jupyter-server-mathjax")
    return static


def _version() -> str:
    try:
        from jupyter_server_mathjax import __version__ as version
    except ImportError:  # pragma: no cover
        version = "unknown"
    return str(version)


def copy_mathjax(dest: str | os.PathLike) -> Path:
    """Copy MathJax's files into the folder `dest` (created), once: a stamp records the version,
    so calling it for every page of a site or every feedback file costs nothing after the first.
    Returns `dest` as a Path. Everything is copied (about 10 MB), localisations included: MathJax
    asks for its menus in the browser's language."""
    dest = Path(dest)
    stamp = dest / _STAMP
    if stamp.is_file() and stamp.read_text() == _version() and (dest / "MathJax.js").is_file():
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(mathjax_dir(), dest, ignore=shutil.ignore_patterns("__pycache__"))
    stamp.write_text(_version())
    return dest


def mathjax_src(html_file: str | os.PathLike, mathjax_root: str | os.PathLike) -> str:
    """The relative URL (with `?config=`) from the page `html_file` to `mathjax_root/MathJax.js`."""
    html_dir = Path(html_file).resolve().parent
    target = Path(mathjax_root).resolve() / "MathJax.js"
    rel = Path(os.path.relpath(target, html_dir)).as_posix()
    return f"{rel}?config={MATHJAX_CONFIG}"


def mathjax_head(src: str) -> str:
    """The tags that load MathJax from `src` (see `mathjax_src`) with the fonts on disk."""
    return f'{HTML_CSS_CONFIG}\n<script type="text/javascript" src="{src}"></script>'


def localise_mathjax(html: str, src: str) -> str:
    """Rewrite an HTML page (nbconvert, nbgrader feedback) to load MathJax from `src` instead of
    a CDN. Every MathJax loader tag is replaced; the page's own `text/x-mathjax-config` blocks
    (delimiters, equation numbers) are kept. A page with no loader gets one before `</head>`.
    nbconvert's CDN require.js (only widgets use it) is dropped, so no request leaves the page.

    Raises ValueError when the page has neither a MathJax loader nor a `</head>`.
    """
    head = mathjax_head(src)
    replaced = [False]

    def _sub(match: re.Match) -> str:
        if replaced[0]:
            return ""  # a second loader would load MathJax twice
        replaced[0] = True
        return head

    html = _REMOTE_REQUIRE.sub("", html)
    out = _LOADER.sub(_sub, html)
    if replaced[0]:
        return out
    at = re.search(r"</head\s*>", html, re.IGNORECASE)
    if at is None:
        raise ValueError("expected an HTML page with a MathJax <script src=...> or a </head>, got neither")
    return html[: at.start()] + head + "\n" + html[at.start() :]


def localise_html_file(html_file: str | os.PathLike, mathjax_root: str | os.PathLike | None = None) -> str:
    """Make one HTML file show its maths offline: copy MathJax into `mathjax_root` (default: a
    `mathjax/` folder next to the file; share one root between many pages) and rewrite the file
    to load it by a relative URL. Returns the URL written."""
    html_file = Path(html_file)
    root = Path(mathjax_root) if mathjax_root is not None else html_file.parent / "mathjax"
    copy_mathjax(root)
    src = mathjax_src(html_file, root)
    html_file.write_text(localise_mathjax(html_file.read_text(encoding="utf-8"), src), encoding="utf-8")
    return src
