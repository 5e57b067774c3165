"""One self-contained HTML file per analysis, compare or trend document (issue 6).

Inline CSS, inline SVG charts drawn here in Python, a few lines of inline JS for
sortable tables, the data as an inline JSON island; nothing is fetched when the
file is opened. Jinja2 autoescaping is on: every string from a report is text.

Public API::

    render_analysis(doc, report=None) -> str   # report: the parsed Report, for histograms, I/O and section tables
    render_analyses([(doc, report), ...]) -> str
    render_compare(doc) -> str
    render_trend(doc) -> str                   # trend or fleet document (doc["kind"])
    render_fleet(doc) -> str
    environment() -> jinja2.Environment        # templates and partials, reusable by the web app

Partials (``partials/*.html.j2``): ``verdict``, ``finding_card``, ``chart``, ``issues``; the parsed sections' tables
are drawn in Python (``views.section_table_html``, the ``section_table`` filter): one per section, thousands of cells.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache

import jinja2
from jinja2 import Environment, FileSystemBytecodeCache, PackageLoader, select_autoescape
from markupsafe import Markup

from ...cachedir import cache_folder
from ...model import Report
from ..numbers import fmt_num, fmt_value
from .data import chart_data
from .views import analysis_view, compare_view, fleet_view, section_tables, trend_view

__all__ = ["render_analysis", "render_analyses", "render_compare", "render_trend", "render_fleet", "environment", "chart_data",
           "section_tables"]

SEVERITY_CLASS = {"critical": "sev-critical", "major": "sev-major", "moderate": "sev-moderate", "minor": "sev-minor",
                  "info": "sev-info"}


def _json_island(obj) -> Markup:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' survive literally."""
    text = json.dumps(obj, ensure_ascii=False, default=str, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


class _TemplateCache(FileSystemBytecodeCache):
    """Compiled templates kept between runs: compiling them is most of what one HTML page costs (60 of the
    90 ms between `analyze --format json` and `--format html` of one report). Holds our templates' code only,
    never report data; a cache that cannot be written only costs the compile."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged or foreign file: compile again (Jinja lets pickle errors out)
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _template_cache() -> _TemplateCache | None:
    if os.environ.get("AWRSCOPE_TEMPLATE_CACHE", "1") == "0":
        return None
    # per Jinja version: the compiled code calls Jinja's runtime (Jinja itself checks Python's version and
    # each template's source)
    folder = cache_folder(f"templates-jinja{jinja2.__version__}")
    return None if folder is None else _TemplateCache(folder)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=PackageLoader("awrscope.render.html", "templates"),
                      autoescape=select_autoescape(["html", "j2", "svg"], default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True, bytecode_cache=_template_cache(),
                      auto_reload=False)  # package data: no stat() of each partial at every page
    env.filters["num"] = fmt_num
    env.filters["val"] = fmt_value  # the number alone, at its unit's precision (the unit is in its own column)
    env.filters["signed"] = lambda v, unit="": fmt_num(v, unit, signed=True)  # a change: '+50,800 %'
    from ..common import evidence_label, prose, unit_of
    env.filters["unit_of"] = unit_of
    env.filters["evidence_label"] = evidence_label
    env.filters["prose"] = prose
    env.filters["json_island"] = _json_island
    env.filters["sevclass"] = lambda s: SEVERITY_CLASS.get(s, "sev-info")
    env.filters["bounds"] = _bounds
    from .views import section_table_html

    env.filters["section_table"] = section_table_html
    from ..common import claim_lines, ledger_owner_text, ledger_rows, no_findings_text, source_lines

    env.globals.update(ledger_rows=ledger_rows, ledger_owner_text=ledger_owner_text, claim_lines=claim_lines,
                       no_findings_text=no_findings_text, source_lines=source_lines)
    return env


def _bounds(v, unit: str = "") -> str:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        lo, hi = v
        if lo == hi:
            return fmt_num(lo, unit)
        return f"{fmt_value(lo, unit)} – {fmt_num(hi, unit)}"
    if isinstance(v, (int, float)):
        return fmt_num(v, unit)
    return "n/a" if v is None else str(v)


def render_analysis(doc: dict, report: Report | None = None) -> str:
    """One analysed report as a standalone HTML page."""
    return render_analyses([(doc, report)])


def render_analyses(items: list[tuple[dict, Report | None]]) -> str:
    """Several analysed reports in one page (``awrscope analyze a.txt b.txt -o x.html``)."""
    views = [analysis_view(doc, report) for doc, report in items]
    title = views[0]["title"] if len(views) == 1 else f"awrscope: {len(views)} reports"
    data = [{"analysis": doc, "charts": v["charts"]} for (doc, _), v in zip(items, views)]
    return environment().get_template("analysis.html.j2").render(
        title=title, views=views, data=data[0] if len(data) == 1 else data)


def render_compare(doc: dict) -> str:
    """A compare document (two periods or two reports) as before/after bars with deltas."""
    view = compare_view(doc)
    return environment().get_template("compare.html.j2").render(title=view["title"], view=view, data=doc)


def render_trend(doc: dict) -> str:
    """A trend document (one database: time series with the windows where findings fire marked) or a fleet
    document (several databases, worst first, each with its trend); see docs/compare.md."""
    if doc.get("kind") == "fleet":
        view = fleet_view(doc)
        return environment().get_template("fleet.html.j2").render(title=view["title"], view=view, data=doc)
    view = trend_view(doc)
    return environment().get_template("trend.html.j2").render(title=view["title"], view=view, data=doc)


def render_fleet(doc: dict) -> str:
    """A fleet document (``awrscope trend`` over several databases): same as :func:`render_trend`."""
    return render_trend(doc)
