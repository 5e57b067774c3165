"""The ASH family: ``ashrpt.sql`` reports, text and HTML, 10.2 to 19c.

An ASH report samples sessions over an analysis period instead of differencing two
snapshots, so it has no time model: its DB time is estimated as average active sessions x
elapsed (said in the issues), and its *Top User Events* become ``top_events`` with each
event's share of that estimate. The front ends (``text``, ``html``) cut sections into
format-neutral records; one mapper per section (``sections``) makes the typed rows.
"""
from __future__ import annotations

from msgspec import Struct, field

from ...errors import NotAReportError
from ...model import ParseIssue, Report, Section
from ..detect import Detected
from ..timefmt import checked_elapsed
from .header import AshHeader, build_header, text_pairs, title_of
from .records import Table, group_rows
from .sections import Context, lookup, sql_texts
from .text import (
    header_tables,
    normalise,
    read_levels,
    records_from_text,
    split_sections,
    widths,
)

DB_TIME_NOTE = "DB time estimated from ASH samples: AAS x elapsed"


class _Printed(Struct):
    """A section as the report prints it: title, line, whether it says 'No data exists',
    and its rows (text lines or HTML cells), for the checks and the SQL text list."""

    title: str
    line: int
    says_empty: bool = False
    rows: list = field(default_factory=list)


def parse_ash(det: Detected, text: str) -> Report:
    """The typed Report of the ASH report ``det`` detected in ``text``."""
    issues: list[ParseIssue] = []
    if det.format == "html":
        printed, sections, ah = _from_html(text, issues)
    else:
        printed, sections, ah = _from_text(text)
    h = ah.header
    version = h.version or det.version
    report = Report(kind="ash", format=det.format, version=version, header=h, sections={}, issues=issues,
                    generation="ash" + (".".join(version.split(".")[:2]) if version else ""))
    _derive_times(report, ah)
    sql_list = next((p.rows for p in printed if " ".join(p.title.lower().split()) == "complete list of sql text"), [])
    ctx = Context(report.db_time_s, ah.samples, issues, sql_texts(sql_list))
    for table, spec in sections:
        if spec.key in report.sections:
            continue  # a title printed twice: the first one is the section
        sec = map_table(table, spec, ctx)
        if sec is not None:
            report.sections[spec.key] = sec
    for key, sec in ctx.derived.items():
        report.sections.setdefault(key, sec)
    _check(report, text, printed)
    return report


def _from_text(text: str):
    lines = normalise(text)
    header, raw_sections = split_sections(lines)
    ah = build_header(header_tables(header), text_pairs(header), title_of(header))
    printed, sections = [], []
    for raw in raw_sections:
        spec = lookup(raw.title)
        says_empty = any("no data exists" in line.lower() for _, line in raw.body[:6])
        printed.append(_Printed(raw.title, raw.line, says_empty))
        if spec is None:
            continue
        levels, rows = read_levels(raw.body)
        printed[-1].rows = rows
        records = records_from_text(levels, rows, spec.starts, spec.free_text)
        sections.append((Table(raw.title, raw.line, records, widths(levels), "text"), spec))
    return printed, sections, ah


def _from_html(text: str, issues: list[ParseIssue]):
    from .html import read_html  # lazily: text reports never load the HTML scanner

    try:
        head_tables, pairs, title, html_sections, html_issues = read_html(text)
    except NotAReportError:
        raise NotAReportError("an ASH report title, but the HTML holds no table: the file is damaged "
                              "or not an ASH report") from None
    issues.extend(html_issues)
    ah = build_header(head_tables, pairs, title)
    printed, sections = [], []
    for s in html_sections:
        spec = lookup(s.title)
        printed.append(_Printed(s.title, s.line, False, s.rows))
        if spec is not None:
            sections.append((Table(s.title, s.line, group_rows(s.rows, spec.starts), {}, "html"), spec))
    return printed, sections, ah


def map_table(table: Table, spec, ctx: Context) -> Section | None:
    """A section's mapper on its table; a mapper's failure is an error issue of that section, not of the report."""
    try:
        sec = spec.mapper(table, spec.key, ctx)
    except Exception as e:  # a mapper bug must not lose the rest of the report
        ctx.issues.append(ParseIssue("error", spec.key, table.line,
                                     f"section '{table.title}' could not be read ({type(e).__name__}: {e})"))
        return None
    return sec


def _derive_times(report: Report, ah: AshHeader) -> None:
    """elapsed_s from the printed Elapsed Time, checked against the analysis begin and end
    times; db_time_s = average active sessions x elapsed_s (an estimate, said so)."""
    h = report.header
    report.elapsed_s = checked_elapsed(
        h.elapsed_min, h.begin.time if h.begin else None, h.end.time if h.end else None,
        lambda msg: report.issues.append(ParseIssue("warning", "header", h.elapsed_line, msg)),
        "Elapsed Time", "analysis begin and end times", using="times")
    if h.elapsed_min is None and report.elapsed_s:
        h.elapsed_min = report.elapsed_s / 60.0
    if ah.aas is not None and report.elapsed_s:
        report.db_time_s = ah.aas * report.elapsed_s
        h.db_time_min, h.db_time_line = report.db_time_s / 60.0, ah.aas_line
        report.issues.append(ParseIssue("info", "header", ah.aas_line, DB_TIME_NOTE))
    elif report.elapsed_s:
        report.issues.append(ParseIssue("warning", "header", h.line,
                                        "the report prints no Average Active Sessions: no DB time, and the "
                                        "events have shares but no times"))


def _check(report: Report, text: str, printed: list[_Printed]) -> None:
    """Say what is missing: no header and no section is not an ASH report at all; a report
    without its Top User Events, with a mapped section that yielded nothing, or cut before
    'End of Report' is partial."""
    h = report.header
    if not report.sections and not (h.begin or h.end or h.db_name or h.elapsed_min):
        raise NotAReportError("an ASH report title, but neither its header (DB name, analysis period) nor a "
                              "section could be read: the file is damaged or not an ASH report")
    for p in printed:
        spec = lookup(p.title)
        if spec is not None and spec.key not in report.sections and not p.says_empty \
                and not any(i.section == spec.key for i in report.issues):
            report.issues.append(ParseIssue("warning", spec.key, p.line, f"section '{p.title}': no rows could be read"))
    if "top_events" not in report.sections:
        report.issues.append(ParseIssue("warning", "top_events", None,
                                        "no Top User Events could be read: the events' shares of DB time are unknown"))
    if report.elapsed_s is None:
        report.issues.append(ParseIssue("warning", "header", h.line,
                                        "no analysis period (Elapsed Time, begin and end times) could be read"))
    if "end of report" not in text[-3000:].lower():
        report.issues.append(ParseIssue("warning", None, None,
                                        "the report does not end with 'End of Report': it may be truncated; "
                                        "sections after the cut are missing"))


__all__ = ["DB_TIME_NOTE", "map_table", "parse_ash"]
