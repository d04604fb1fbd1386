"""Offline MathJax (attnlab.course.mathjax): the files are on disk, pages are rewritten to load
them by a relative URL, and nothing is left pointing at a CDN. The browser side (equations
really typeset from file://) is tested in tests/test_site.py."""
from __future__ import annotations

import re

import nbformat
import pytest
from nbconvert import HTMLExporter

from attnlab.course import mathjax


def test_mathjax_files_are_on_disk():
    root = mathjax.mathjax_dir()
    assert (root / "MathJax.js").is_file()
    config = mathjax.MATHJAX_CONFIG.split(",")[0]
    assert (root / "config" / f"{config}.js").is_file()
    # the font the pages ask for: HTML-CSS metrics and the woff files
    assert (root / "jax" / "output" / "HTML-CSS" / "fonts" / "STIX-Web" / "fontdata.js").is_file()
    assert list((root / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").rglob("*.woff"))


def test_copy_is_done_once(tmp_path):
    dest = mathjax.copy_mathjax(tmp_path / "mj")
    assert (dest / "MathJax.js").is_file()
    marker = dest / "MathJax.js"
    mtime = marker.stat().st_mtime_ns
    mathjax.copy_mathjax(tmp_path / "mj")
    assert marker.stat().st_mtime_ns == mtime, "a second copy should be skipped"


def test_src_is_relative(tmp_path):
    page = tmp_path / "feedback" / "alice" / "01" / "01.html"
    root = tmp_path / "feedback" / "mathjax"
    assert mathjax.mathjax_src(page, root) == f"../../mathjax/MathJax.js?config={mathjax.MATHJAX_CONFIG}"
    assert mathjax.mathjax_src(tmp_path / "a.html", tmp_path / "mathjax").startswith("mathjax/MathJax.js?")


def _nbconvert_page() -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("The softmax $\\sigma(x)_i = e^{x_i} / \\sum_j e^{x_j}$.")]
    html, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    return html


@pytest.mark.parametrize(
    "loader",
    [
        None,  # what nbconvert writes today, found in the page itself
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/latest.js?config=TeX-AMS_CHTML-full,Safe"> </script>',
        "<script type='text/javascript' src='https://cdn.jsdelivr.net/npm/mathjax@2/MathJax.js?config=TeX-AMS_HTML'></script>",
    ],
)
def test_localise_replaces_the_cdn_loader(loader):
    page = _nbconvert_page()
    if loader is not None:
        page = re.sub(r"<script src=\"[^\"]*mathjax[^\"]*\">\s*</script>", loader, page, flags=re.I)
    assert re.search(r"src=[\"']https://[^\"']*mathjax", page, re.I), "the corpus page should load a CDN MathJax"
    assert re.search(r"src=[\"']https://[^\"']*require", page, re.I), "and nbconvert's CDN require.js"
    out = mathjax.localise_mathjax(page, "mathjax/MathJax.js?config=" + mathjax.MATHJAX_CONFIG)
    assert not re.search(r"<script[^>]*src=[\"']https?://", out, re.I), "no script may come from the network"
    assert out.count("mathjax/MathJax.js?config=") == 1
    assert "init_mathjax" in out, "the page's own MathJax configuration is kept"
    assert 'webFont: "STIX-Web"' in out


def test_localise_adds_a_loader_to_a_page_without_one():
    out = mathjax.localise_mathjax("<html><head><title>t</title></head><body>$x$</body></html>", "m/MathJax.js")
    assert out.index('src="m/MathJax.js"') < out.index("</head>")
    with pytest.raises(ValueError, match="expected an HTML page"):
        mathjax.localise_mathjax("just $x$", "m/MathJax.js")


def test_localise_html_file(tmp_path):
    page = tmp_path / "alice" / "01.html"
    page.parent.mkdir()
    page.write_text(_nbconvert_page(), encoding="utf-8")
    src = mathjax.localise_html_file(page, tmp_path / "mathjax")
    assert src.startswith("../mathjax/MathJax.js")
    assert (tmp_path / "mathjax" / "MathJax.js").is_file()
    assert src in page.read_text(encoding="utf-8")
