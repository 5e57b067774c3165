"""The analysis and compare pages show exactly what the HTML report shows
(awrscope.render.html, issue 6): the standalone page is rendered by its public
functions and its <main> is embedded in the web page, with its stylesheet and
its small table-sorting script (which then runs under the page's CSP nonce)."""
from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup


def _main_of(html: str) -> Markup:
    start = html.index("<main>") + len("<main>")
    end = html.rindex('<footer class="muted">', start) if '<footer class="muted">' in html[start:] else \
        html.rindex("</main>")
    # Everything between the markers was produced by autoescaped templates: it is markup, not report text.
    return Markup(html[start:end])


def analysis_html(doc: dict, report=None) -> Markup:
    from ..render.html import render_analysis

    return _main_of(render_analysis(doc, report))


def compare_html(doc: dict) -> Markup:
    from ..render.html import render_compare

    return _main_of(render_compare(doc))


def trend_html(doc: dict) -> Markup:
    from ..render.html import render_trend

    return _main_of(render_trend(doc))


@lru_cache(maxsize=1)
def renderer_id() -> str:
    """Names what draws an analysis page (the awrscope version and a digest of the report's templates and
    static files): a page stored by another renderer is drawn anew, so an upgrade never serves old pages."""
    import hashlib
    from pathlib import Path

    from .. import __version__
    from ..render import html as html_pkg

    digest = hashlib.sha256()
    root = Path(html_pkg.__file__).parent
    for f in sorted(root.rglob("*")):
        if f.is_file() and f.suffix in (".html", ".css", ".js", ".py", ".j2"):
            digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:16]}"


@lru_cache(maxsize=1)
def report_css() -> Markup:
    """The report's stylesheet, scoped under .awr-report where it styles whole-page elements."""
    from ..render.html import environment

    env = environment()
    css = env.loader.get_source(env, "static/style.css")[0]
    css = css.replace("\nbody {", "\n.awr-report {").replace("\nmain {", "\n.awr-report-main {")
    css = css.replace("\nhtml {", "\n.awr-report {")
    return Markup(css.replace("</", "<\\/"))


@lru_cache(maxsize=1)
def report_js() -> Markup:
    from ..render.html import environment

    env = environment()
    return Markup(env.loader.get_source(env, "static/app.js")[0].replace("</", "<\\/"))
