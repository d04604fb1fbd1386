"""What a learner saved, made inert before an instructor's page shows it.

A submitted notebook carries outputs saved by the learner's own Jupyter (``text/html`` with a
``<script>``, ``application/javascript``, an SVG with ``onload``, widget views) and markdown
with raw HTML (``<img onerror=...>``). nbconvert renders those as they are, so in the feedback
page and in formgrader (which renders the autograded notebook) they would run in the
instructor's browser session. The grader therefore writes the autograded notebook, which both
read, with:

* **markdown** the learner wrote (any markdown cell that is not the course's own, word for
  word): rendered here by nbconvert's own renderer, images pasted into the cell (its
  ``attachments``: PNG, JPEG, GIF, WebP or SVG, as base64) inlined as ``data:`` images and a
  reference to an attachment the cell does not hold left without a source, the HTML cleaned by ``nh3`` (a maintained
  sanitiser: the Rust ``ammonia`` library), and stored as one HTML block that the renderers
  pass through unchanged. Maths stays as text, so MathJax still typesets it; MathJax commands
  that make links or styles (``\\href``, ``\\style``, ``\\class``, ``\\cssId``, ``\\require``)
  are shown as text;
* **outputs** kept only in the types the pages render as data: ``text/plain``, ``text/html``
  (cleaned by ``nh3``), ``text/markdown`` (rendered and cleaned, stored as ``text/html``),
  ``text/latex``, PNG, JPEG and GIF images whose data is plain base64, SVG shown through an
  ``<img>`` (a browser runs no script of an SVG loaded as an image), ``application/json``.
  JavaScript, widget views and every other type are dropped. Output metadata keeps only numeric
  image sizes.

Anything malformed (a value of the wrong type) is dropped, never an error.
"""
from __future__ import annotations

import base64
import binascii
import re

import nh3

__all__ = ["clean_html", "markdown_to_safe_html", "safe_attachments", "safe_markdown_cell", "safe_outputs",
           "defuse_tex"]

_TAGS = set(nh3.ALLOWED_TAGS) - {"area", "map"}
_ATTRIBUTES = {tag: set(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()}
_ATTRIBUTES["*"] = set(_ATTRIBUTES.get("*", set())) | {"class", "lang", "title"}
_ATTRIBUTES.setdefault("img", set()).update({"src", "alt", "width", "height"})
_ATTRIBUTES.setdefault("td", set()).update({"colspan", "rowspan"})
_ATTRIBUTES.setdefault("th", set()).update({"colspan", "rowspan"})
_SCHEMES = {"http", "https", "mailto", "data"}
_DATA_IMAGE = re.compile(r"data:image/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=\s]*\Z", re.I)


def _attribute_filter(element: str, attribute: str, value: str) -> str | None:
    """``data:`` URLs only as an image's source, and only base64 images."""
    if value.strip().lower().startswith("data:"):
        if element == "img" and attribute == "src" and _DATA_IMAGE.match(value.strip()):
            return value
        return None
    return value


def clean_html(text: str) -> str:
    """``text`` (HTML) with nothing active left: no scripts, event handlers, styles, frames,
    forms or ``javascript:`` URLs (``nh3``, ammonia's allow-list, plus ``class``)."""
    return defuse_tex(nh3.clean(text, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_SCHEMES,
                                attribute_filter=_attribute_filter, link_rel="noopener noreferrer nofollow"))


# MathJax 2 commands that make links, styles or load code; shown as text instead. (The course's
# own pages load MathJax with its Safe extension; formgrader loads it without.)
_TEX_ACTIVE = re.compile(r"\\(href|style|class|cssId|require|unicode)(?![A-Za-z])")


def defuse_tex(text: str) -> str:
    return _TEX_ACTIVE.sub(lambda m: r"\backslash\text{" + m.group(1) + "}", text)


def markdown_to_safe_html(source: str, attachments: dict | None = None) -> str:
    """Markdown as nbconvert renders it (maths kept as text for MathJax), then cleaned;
    ``attachments``: the cell's pasted images, already through :func:`safe_attachments`."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    class Renderer(IPythonRenderer):
        def _embed_image_or_attachment(self, src: str) -> str:
            # nbconvert raises on a name the cell does not hold; the page shows the alt text instead
            if src.startswith("attachment:") and src[len("attachment:"):] not in self.attachments:
                return ""
            return super()._embed_image_or_attachment(src)

    return clean_html(MarkdownWithMath(renderer=Renderer(escape=False, attachments=attachments or {})).render(source))


def _one_block(html: str) -> str:
    """HTML as a single line in a ``<div>``: a markdown renderer passes an HTML block through
    untouched until a blank line, so there must be none (a newline in ``<pre>`` stays one)."""
    return '<div class="attnlab-learner-markdown">' + html.replace("\r", "").replace("\n", "&#10;") + "</div>"


def safe_markdown_cell(source: str, attachments=None) -> str:
    """The markdown cell's source (and the images pasted into it) as inert HTML that renders as
    the markdown did."""
    return _one_block(markdown_to_safe_html(source, safe_attachments(attachments)))


_ATTACHED_IMAGES = ("image/png", "image/jpeg", "image/gif", "image/webp")


def safe_attachments(attachments) -> dict[str, dict[str, str]]:
    """A markdown cell's ``attachments`` (``{name: {mime: base64}}``) kept only as images: one
    raster type whose data is plain base64, or an SVG (base64 or text), which the page shows
    through an ``<img>`` and so never runs. Anything else is dropped."""
    out: dict[str, dict[str, str]] = {}
    if not isinstance(attachments, dict):
        return out
    for name, bundle in attachments.items():
        if not isinstance(name, str) or not isinstance(bundle, dict):
            continue
        for mime in _ATTACHED_IMAGES:
            b64 = _base64(bundle.get(mime))
            if b64 is not None:
                out[name] = {mime: b64}
                break
        else:
            svg = bundle.get("image/svg+xml")
            b64 = _base64(svg)
            if b64 is None and _text(svg) is not None:
                b64 = base64.b64encode(_text(svg).encode("utf-8", "backslashreplace")).decode("ascii")
            if b64 is not None:
                out[name] = {"image/svg+xml": b64}
    return out


def _text(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return "".join(value)
    return None


_B64 = re.compile(r"[A-Za-z0-9+/=\s]*\Z")


def _base64(value) -> str | None:
    text = _text(value)
    if text is None or not _B64.match(text):
        return None
    compact = "".join(text.split())
    try:
        base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return None
    return compact


def _size_metadata(meta) -> dict:
    out = {}
    if not isinstance(meta, dict):
        return out
    for mime in ("image/png", "image/jpeg", "image/gif"):
        entry = meta.get(mime)
        if isinstance(entry, dict):
            keep = {k: int(v) for k, v in entry.items()
                    if k in ("width", "height") and isinstance(v, (int, float)) and not isinstance(v, bool)
                    and 0 < v < 100_000}
            if keep:
                out[mime] = keep
    return out


def safe_data(data: dict) -> dict:
    """A display's ``data`` with only inert types (see the module's docstring); empty when
    nothing can be shown."""
    out: dict = {}
    if not isinstance(data, dict):
        return out
    plain = _text(data.get("text/plain"))
    if plain is not None:
        out["text/plain"] = plain
    html = _text(data.get("text/html"))
    if html is not None:
        out["text/html"] = clean_html(html)
    markdown = _text(data.get("text/markdown"))
    if markdown is not None and "text/html" not in out:
        out["text/html"] = markdown_to_safe_html(markdown)
    latex = _text(data.get("text/latex"))
    if latex is not None:
        out["text/latex"] = defuse_tex(latex)
    for mime in ("image/png", "image/jpeg", "image/gif"):
        b64 = _base64(data.get(mime))
        if b64 is not None:
            out[mime] = b64
    svg = _text(data.get("image/svg+xml"))
    if svg is not None and "text/html" not in out:
        encoded = base64.b64encode(svg.encode("utf-8", "backslashreplace")).decode("ascii")
        out["text/html"] = f'<img src="data:image/svg+xml;base64,{encoded}" alt="SVG figure">'
    if isinstance(data.get("application/json"), (dict, list)):
        out["application/json"] = data["application/json"]
    return out


def safe_outputs(outputs) -> list[dict]:
    """A code cell's outputs as the pages may render them; malformed ones dropped."""
    clean = []
    for out in outputs if isinstance(outputs, list) else []:
        if not isinstance(out, dict):
            continue
        kind = out.get("output_type")
        if kind == "stream":
            text = _text(out.get("text"))
            if text is not None and out.get("name") in ("stdout", "stderr"):
                clean.append({"output_type": "stream", "name": out["name"], "text": text})
        elif kind in ("display_data", "execute_result"):
            data = safe_data(out.get("data"))
            if not data:
                continue
            item = {"output_type": kind, "data": data, "metadata": _size_metadata(out.get("metadata"))}
            if kind == "execute_result":
                item["execution_count"] = None
            clean.append(item)
        elif kind == "error":
            ename, evalue = out.get("ename"), out.get("evalue")
            tb = out.get("traceback")
            if isinstance(ename, str) and isinstance(evalue, str) and isinstance(tb, list) \
                    and all(isinstance(t, str) for t in tb):
                clean.append({"output_type": "error", "ename": ename, "evalue": evalue, "traceback": tb})
    return clean
