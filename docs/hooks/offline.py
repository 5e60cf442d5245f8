"""MkDocs hook: keep the site free of third-party scripts, and draw tutorial figures inline.

* nbconvert's notebook template adds a MathJax loader (pointing at a CDN unless a URL is
  given) and a Mermaid loader (a CDN import, run only when a page holds a Mermaid diagram).
  The tutorials use neither, so both blocks are removed from the rendered pages.
* Docstrings written with Sphinx roles (``:func:`name```) would show the role literally,
  since mkdocstrings renders Markdown; the role is dropped and the name kept as code
  (``~a.b.c`` shows as ``c``, as in Sphinx).
* After the build every HTML page is checked: a ``<script src>``, a stylesheet ``<link>``,
  a CSS ``@import`` or a dynamic ``import()`` that points at another host fails the build,
  and so does a relative link to a file that is not in the site (MkDocs checks the links
  of Markdown pages; this also covers the tutorials' Markdown cells).
* Math is typeset by MathJax 2, served from the site itself: the copy shipped by the
  ``jupyter-server-mathjax`` package (a docs dependency) is copied to ``assets/mathjax``
  and every page loads it through a relative path. It reads the ``\\( \\)`` / ``\\[ \\]``
  spans of ``pymdownx.arithmatex`` and the ``$ $`` / ``$$ $$`` of the tutorials' cells.
* The tutorials' kernels inherit this process's environment. ``MPLBACKEND=Agg`` (as set for
  the test suite) would stop figures from being drawn into the pages, so the kernels get
  matplotlib's inline backend instead.
* The kernels run one at a time, on problems of at most a few thousand rows, and get one
  BLAS thread unless the caller chose a number: OpenBLAS's idle threads spin between calls,
  and with two threads the strict build took 140 CPU s against 93 with one (the same
  outputs but for their printed timings and the last bits of rounding).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError

_INLINE_BACKEND = "module://matplotlib_inline.backend_inline"

_MATHJAX_BLOCK = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)
_MODULE_SCRIPT = re.compile(r"<script type=\"module\">.*?</script>", re.DOTALL)

_SPHINX_ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|ref|term):<code>(~?)([^<]*)</code>")

_EXTERNAL = [
    ("script", re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?\s*(?:https?:)?//", re.I)),
    ("stylesheet", re.compile(
        r"<link\b(?=[^>]*\brel\s*=\s*[\"']?(?:stylesheet|preload|modulepreload))"
        r"[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//", re.I)),
    ("css import", re.compile(r"@import\s+(?:url\()?\s*[\"']?\s*(?:https?:)?//", re.I)),
    ("dynamic import", re.compile(r"\bimport\(\s*[\"'](?:https?:)?//", re.I)),
]


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def on_config(config):
    os.environ["MPLBACKEND"] = _INLINE_BACKEND
    if not any(name in os.environ for name in _BLAS_THREADS):
        for name in _BLAS_THREADS:
            os.environ[name] = "1"
    return config


def _drop_role(match: re.Match) -> str:
    name = match.group(2)
    if match.group(1):
        name = name.rsplit(".", 1)[-1]
    return f"<code>{name}</code>"


def on_page_content(html: str, page, config, files) -> str:
    return _SPHINX_ROLE.sub(_drop_role, html)


_MATHJAX_CONFIG = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  tex2jax: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]],
            displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]],
            processEscapes: true, processClass: "arithmatex|jp-RenderedMarkdown|jp-MarkdownOutput",
            ignoreClass: "md-typeset|jp-Notebook"},
  "HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null},
  messageStyle: "none"
});
</script>"""


def _mathjax_source() -> Path:
    try:
        import jupyter_server_mathjax
    except ImportError as exc:  # the docs extra installs it
        raise PluginError("the docs need the jupyter-server-mathjax package "
                          "(pip install -e '.[docs]')") from exc
    return Path(jupyter_server_mathjax.__file__).parent / "static"


def _site_root(page) -> str:
    depth = page.url.count("/") if page.url else 0
    return "/".join([".."] * depth) or "."


def on_post_page(output: str, page, config) -> str:
    output = _MATHJAX_BLOCK.sub("", output)
    output = _MODULE_SCRIPT.sub(
        lambda m: "" if "mermaid" in m.group(0) else m.group(0), output)
    loader = (f'{_MATHJAX_CONFIG}\n<script src="{_site_root(page)}/assets/mathjax/MathJax.js'
              '?config=TeX-AMS-MML_HTMLorMML-full"></script>\n')
    return output.replace("</body>", loader + "</body>", 1)


_HREF = re.compile(r"<a\b[^>]*\bhref=\"([^\"#?]+)(?:[#?][^\"]*)?\"", re.I)


def _broken_links(site: Path, page: Path, text: str) -> list[str]:
    broken = []
    for target in _HREF.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # another scheme or host: not checked
        path = (site / target.lstrip("/")) if target.startswith("/") else (page.parent / target)
        if path.is_dir():
            path = path / "index.html"
        if not path.exists():
            broken.append(target)
    return broken


def on_post_build(config) -> None:
    site = Path(config["site_dir"])
    shutil.copytree(_mathjax_source(), site / "assets" / "mathjax", dirs_exist_ok=True)
    problems = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        if page.name != "404.html":
            problems += [f"{page.relative_to(site)}: broken link {target!r}"
                         for target in _broken_links(site, page, text)]
        for kind, pattern in _EXTERNAL:
            for match in pattern.finditer(text):
                problems.append(f"{page.relative_to(site)}: {kind} from another host: "
                                f"{match.group(0)[:120]!r}")
    if problems:
        raise PluginError("the built site loads resources from other hosts or has broken "
                          "links:\n" + "\n".join(problems[:50]))
