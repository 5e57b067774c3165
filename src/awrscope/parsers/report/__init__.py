"""The AWR and Statspack family: instance, RAC global and compare-period reports, text
and HTML. Text and HTML differ only in how raw blocks are cut (``text/``, ``html/``);
one format-agnostic mapper per section (``sections/``) turns blocks into records."""
from __future__ import annotations

import re
from collections import Counter

from ...model import ParseIssue, Report, Section, make_section
from ...oracle.events import is_idle_row
from ..detect import Detected
from ..timefmt import checked_elapsed
from .header import db_from_titles, parse_header, parse_header_tables
from .raw import HTML_HEADER_TITLE, Block
from .reconcile import reconcile
from .sections import lookup
from .sections.misc import complete_sql_ids
from .text import blocks_from_text, normalise_lines
from ... import patterns


def parse_report(det: Detected, text: str) -> Report:
    """The typed Report of an AWR or Statspack report ``det`` detected in ``text``."""
    reports, second = _reports_in(text, det.format == "html")
    if second is not None:  # read the first report only: later ones are other periods, not more of its rows
        text = text[:second]
    if det.format == "html":
        from .html import blocks_from_html  # imported lazily: text users never pay for it

        header_lines, header_first, blocks, html_issues = blocks_from_html(text)
    else:
        lines = normalise_lines(text)
        header_lines, header_first, blocks = blocks_from_text(lines)
        html_issues = []
    report = build_report(det, header_lines, header_first, blocks, html_issues, text)
    if second is not None:
        report.issues.append(ParseIssue("warning", None, text.count("\n") + 1, (
            f"this file holds {reports} reports one after the other: only the first is read (a second report "
            "header starts here); split the file to read the others")))
    if det.format == "html":  # HTML tables are cut when first read: what a bound cut off is known only now
        for b in blocks:
            spec = lookup(b.title) if b.title != HTML_HEADER_TITLE else None
            where = "the report header" if b.title == HTML_HEADER_TITLE else f"section '{b.title[:80]}'"
            report.issues.extend(ParseIssue("warning", spec.key if spec else None, line, f"{where}: {msg}")
                                 for t in b.tables for line, msg in getattr(t, "cut_notes", ()))
    return report


def build_report(det: Detected, header_lines: list[str], header_first: int, blocks: list[Block],
                 issues: list[ParseIssue], text: str) -> Report:
    issues = list(issues)
    sections: dict[str, Section] = {}
    header_tables = []
    if blocks and blocks[0].title == HTML_HEADER_TITLE:
        header_tables = blocks[0].tables
        header = parse_header_tables(header_tables, header_first, issues)
        blocks = blocks[1:]
    else:
        header = parse_header(header_lines, header_first, issues)
    if det.kind == "awr_global" and det.format == "html":
        from .global_report import adapt_global

        header, blocks, sections = adapt_global(blocks, issues)
    if det.kind == "awr_diff":
        return _build_diff(det, header_tables, blocks, issues, text)
    map_blocks(blocks, issues, sections)
    if det.format == "text":
        complete_sql_ids(sections, issues)  # 11.2.0.1 prints 'SQL ordered by Gets' with SQL Ids cut to 11 characters
    if det.kind == "awr":
        from .ash_sections import map_ash_blocks  # AWR 11.2+ prints ASH's Top SQL with Top Events, ...

        map_ash_blocks(blocks, sections, issues, None)
    version = header.version or det.version
    report = Report(kind=det.kind, format=det.format, version=version, header=header,
                    sections=sections, issues=issues, generation=_generation(det.kind, version, sections))
    if not header.db_name or not header.instances:
        db, inst = db_from_titles(_suffix_lines(text))
        if not header.db_name and db:
            header.db_name = db
        if not header.instances and inst:
            from ...model import Instance
            header.instances = [Instance(inst)]
    if not header.db_name and not header.instances and not header.dbid:  # said, not left as 'db ?'
        issues.append(ParseIssue("warning", None, header.line, "the header's database and instance were not found "
                                 "in it (a layout not Oracle's: a copy with blank lines between its lines, columns "
                                 "shifted?): the report is named by its file only"))
    _check_validity(report, text)
    _derive_times(report)
    reconcile(report)
    return report


# The report title lines of the AWR/Statspack family, at a line start (after an <h1> in HTML): a second one
# in a file is a second report (a file concatenated with itself, or reports of several periods).
_REPORT_TITLES = ("WORKLOAD REPOSITORY report for", "WORKLOAD REPOSITORY REPORT (RAC)",
                  "WORKLOAD REPOSITORY COMPARE PERIOD REPORT", "WORKLOAD REPOSITORY PDB report", "STATSPACK report for")
_H1_PREFIX = patterns.compile(r"\s*<h1\b[^<>]*>\s*", re.I)
_PAGE_START = patterns.compile(r"<!doctype\b|<html\b", re.I)


def _reports_in(text: str, html: bool) -> tuple[int, int | None]:
    """(number of report title lines, start of the line of the second one or None)."""
    starts = []
    for title in _REPORT_TITLES:
        pos = text.find(title)
        while pos >= 0:
            line = text.rfind("\n", 0, pos) + 1
            before = text[line:pos]
            if not before.strip() or _H1_PREFIX.fullmatch(before):
                starts.append(line)
            pos = text.find(title, pos + len(title))
    starts.sort()
    if len(starts) < 2:
        return len(starts), None
    # an HTML report's page starts before its title: the first report ends at the second page's start
    page = _PAGE_START.search(text, starts[0], starts[1]) if html else None
    return len(starts), page.start() if page else starts[1]


# Separate printings of one mapped title that are still read and merged (a title that repeats later in the
# report); no corpus report prints a mapped title twice. More is a duplicated section: its first printing is read.
MAX_PRINTINGS = 3


def map_blocks(blocks: list[Block], issues: list[ParseIssue],
               sections: dict[str, Section] | None = None) -> dict[str, Section]:
    """Map raw blocks to sections through the registry. Sections already in
    ``sections`` (built by a report-kind adapter) are kept over same-key blocks.
    A title printed more than MAX_PRINTINGS times, or followed by identical
    copies of itself, is read once, with a warning."""
    if sections is None:
        sections = {}
    built_here = set(sections)
    printings = Counter(b.title for b in blocks)
    copies = Counter()
    for b in blocks:
        copies[b.title] += b.copies
    read_once: set[str] = set()
    for block in blocks:
        spec = lookup(block.title)
        if spec is None:
            continue
        if block.title in read_once:
            continue
        n, dup = printings[block.title], copies[block.title]
        if n > MAX_PRINTINGS or dup:
            read_once.add(block.title)
            said = f"is printed {n:,} times" if n > 1 else "is printed once"
            if dup:
                said += f", with {dup:,} identical pages again after its own (a page break does not repeat a page)"
            issues.append(ParseIssue("warning", spec.key, block.line,
                                     f"section '{block.title[:80]}' {said}: only its first printing is read"))
        try:
            sec = spec.mapper(block, spec.key, issues)
        except Exception as e:  # a mapper bug must not lose the rest of the report
            issues.append(ParseIssue("error", spec.key, block.line,
                                     f"section '{block.title}' could not be read ({type(e).__name__}: {e})"))
            continue
        if sec is None:
            if _says_no_data(block):
                continue
            if block.tables or any(l.strip() for l in block.lines):
                issues.append(ParseIssue("warning", spec.key, block.line,
                                         f"section '{block.title}': no rows could be read"))
            continue
        # a mapper may return several sections under their own keys (Statspack 10g+
        # prints key, absolute and thread activity all as 'Instance Activity Stats')
        for one in (sec if isinstance(sec, list) else [sec]):
            if one.key in sections and one.key in built_here:
                continue  # a global report's database totals win over a same-titled table
            if one.key in sections:
                sections[one.key] = _merge(sections[one.key], one)
            else:
                sections[one.key] = one
    return sections


def _build_diff(det: Detected, header_tables: list, blocks: list[Block], issues: list[ParseIssue], text: str) -> Report:
    """A compare-period report: two period Reports plus the printed %Diff figures.
    The document's own header and times are the first period's."""
    from .diff_report import build_periods, period_headers, text_header_tables, title_times

    if det.format == "text":
        header_tables = text_header_tables(text)
    headers = period_headers(header_tables, issues)
    template = Report(kind=det.kind, format=det.format, version=headers[0].version or det.version,
                      header=headers[0], sections={}, issues=issues)
    periods, diff = build_periods(blocks, headers, template, map_blocks)
    exact = title_times(text) if det.format == "text" else [None, None]
    for p, times in zip(periods, exact):
        _fill_db_name(p, issues)
        _derive_times(p)
        # the header's minutes are rounded to 0.1 (15.0 for 901.55 s): take the titles' seconds when they agree
        if times and (p.elapsed_s is None or abs(times[0] - p.elapsed_s) <= 0.02 * times[0]):
            p.elapsed_s = times[0]
        if times and (p.db_time_s is None or abs(times[1] - p.db_time_s) <= 0.02 * times[1]):
            p.db_time_s = times[1]
    template.periods = periods
    template.diff = diff
    template.generation = _generation(det.kind, template.version, {})
    _check_validity(template, text)
    template.elapsed_s = periods[0].elapsed_s
    template.db_time_s = periods[0].db_time_s
    return template


def _fill_db_name(report: Report, issues: list[ParseIssue]) -> None:
    """Some compare-period text reports print no DB Name column: fall back on
    the instance name and say so."""
    h = report.header
    if not h.db_name and h.instances and h.instances[0].name:
        h.db_name = h.instances[0].name.upper()
        msg = "the report prints no DB name: the instance name stands in for it"
        if not any(i.message == msg for i in issues):
            issues.append(ParseIssue("info", "header", h.line, msg))


def _suffix_lines(text: str) -> list[str]:
    out = []
    start = 0
    for _ in range(3):
        k = text.find("DB/Inst:", start)
        j = text.find("for DB:", start)
        cands = [x for x in (k, j) if x >= 0]
        if not cands:
            break
        pos = min(cands)
        end = text.find("\n", pos)
        out.append(text[pos:end if end > 0 else None])
        start = pos + 1
    return out


def _says_no_data(block: Block) -> bool:
    return any("no data exists" in l.lower() for l in block.lines[:6])


def _merge(a: Section, b: Section) -> Section:
    """Key + Other Instance Activity Stats, or a title that repeats later."""
    seen = {r.name for r in a.rows}
    rows = list(a.rows) + [r for r in b.rows if r.name not in seen]
    units = dict(a.units)
    for k, v in b.units.items():
        units.setdefault(k, v)
    return make_section(a.key, a.title, a.line, units, rows, list(a.notes) + [n for n in b.notes if n not in a.notes])


def _generation(kind: str, version: str | None, sections: dict[str, Section]) -> str:
    prefix = {"statspack": "sp", "awr": "awr", "awr_global": "awr_global", "awr_diff": "awr_diff"}.get(kind, kind)
    if version:
        parts = version.split(".")
        return f"{prefix}{'.'.join(parts[:2]) if parts[0] not in ('11',) else '.'.join(parts[:4])}"
    top = sections.get("top_events")
    if top is not None:
        t = top.title.lower()
        if "wait events" in t:
            return f"{prefix}8i/9.0"
        if "foreground events by total" in t:
            return f"{prefix}11.2.0.4+"
        if "timed foreground" in t:
            return f"{prefix}11.1-11.2.0.3"
    return prefix


#: What a report whose snapshots span an instance restart is told (its deltas mix two instances' counters)
ACROSS_RESTART = ("the report says the instance restarted between the snapshots: its deltas are invalid "
                  "(Statspack 'RESULTS ARE INVALID'); no metric from it can be trusted")


#: Oracle's words for snapshots that span a restart (Statspack's banner, the AWR scripts' error)
_RESTART_WORDS = ("RESULTS ARE INVALID", "was shutdown between snapshots", "re-started during", "instance was restarted")

#: How a line Oracle printed those words in begins, once tags and blanks are set aside: a note of a tutorial or a
#: mail above the report that quotes them ('> if you get "re-started during specified snapshot interval", ...')
#: says nothing of this report
_MESSAGE_START = patterns.compile(r"(?:\s|<[^>]*>)*(?:ERROR|WARNING|ORA-\d|\*|DATABASE/INSTANCE|INSTANCE|THE INSTANCE)",
                                  re.I)


def _said_by_oracle(head: str, words: tuple[str, ...]) -> bool:
    """Whether one of ``words`` (any case) is on a line of ``head`` that reads as Oracle's message."""
    low = head.lower()
    for w in words:
        at = low.find(w.lower())
        while at >= 0:
            line_start = head.rfind("\n", 0, at) + 1
            if _MESSAGE_START.match(head, line_start):
                return True
            at = low.find(w.lower(), at + len(w))
    return False


def _check_validity(report: Report, text: str) -> None:
    head = text[:200_000]
    if _said_by_oracle(head, _RESTART_WORDS):
        report.issues.append(ParseIssue("error", None, None, ACROSS_RESTART))
    if _said_by_oracle(head, ("TIMINGS ARE INVALID",)):
        report.issues.append(ParseIssue("warning", None, None,
                                        "timed_statistics changed between the snapshots: timings are invalid"))
    tail = text[-3000:].lower()
    if "end of report" in tail:
        # a complete report with a table Oracle printed without its closing tag (Exadata cell sections of 19c
        # global reports): read as libxml2 reads it, said at its line, not a warning over the whole report
        for k, i in enumerate(report.issues):
            if i.message == "a table was not closed before the end of the file":
                report.issues[k] = ParseIssue("info", i.section, i.line, "a table is not closed in the report "
                                              "(Oracle printed it without '</table>'); it ends where the file ends")
    else:
        if report.format == "text":
            report.issues.append(ParseIssue("warning", None, None,
                                            "the report does not end with 'End of Report': it may be truncated; "
                                            "sections after the cut are missing"))
        elif "</html>" not in tail:  # AWR compare-period pages print no 'End of Report', but close the page
            report.issues.append(ParseIssue("warning", None, None,
                                            "the HTML report ends without 'End of Report' or '</html>': it may be "
                                            "truncated; sections after the cut are missing"))


def _derive_times(report: Report) -> None:
    """elapsed_s and db_time_s, each from the best source, with plausibility checks (M01, M02)."""
    h = report.header
    report.elapsed_s = checked_elapsed(
        h.elapsed_min, h.begin.time if h.begin else None, h.end.time if h.end else None,
        lambda msg: report.issues.append(ParseIssue("warning", "header", h.line, msg)), "Elapsed", "snapshot times")
    tm = report.sections.get("time_model")
    dbt = tm.row("DB time") if tm else None
    if dbt is not None and dbt.get("time_s"):
        report.db_time_s = dbt.get("time_s")
    elif h.db_time_min:
        report.db_time_s = h.db_time_min * 60
        _header_db_time_against_the_shares(report)
    else:
        est = _response_time_8i(report)
        if est:
            report.db_time_s = est
            report.issues.append(ParseIssue(
                "info", "wait_events", None,
                "no DB time in this report (Statspack before 10g): db_time_s is estimated as "
                "CPU used by this session + foreground non-idle wait time (spec M02)"))


def _header_db_time_against_the_shares(report: Report) -> None:
    """DB time from the header (the report prints no time model row) when the report's own shares are of another
    DB time: the SQL section's 'Total DB Time (s)' note, confirmed by the Top-N's largest share (its time over its
    printed % DB time), both outside the header's figure. Ault's Figure 4 (examples/): the header's 173.88 min
    (10,432.8 s; its caption says some values are summed over 2 instances) against 'Total DB Time (s): 9,653' and
    DB CPU 7,891 s at 81.7 % (9,653-9,664 s): every share of the report is of 9,653 s, and so are awrscope's."""
    printed = report.printed_total_db_time()
    header_s = report.db_time_s
    if printed is None or not header_s:
        return
    total, key, line = printed
    if abs(total - header_s) <= 0.5 + 0.3 + 0.005 * max(total, header_s):  # the same, to the printed rounding
        return
    rows = [r for r in (report.sections.get("top_events") or ()) if r.name and (r.values.get("time_s") or 0) > 0
            and (r.values.get("pct_db_time") or 0) >= 10.0]
    if not rows:
        return
    top = max(rows, key=lambda r: r.values["pct_db_time"])
    t, p = top.values["time_s"], top.values["pct_db_time"]
    low, high = (t - 0.5) / ((p + 0.05) / 100.0), (t + 0.5) / ((p - 0.05) / 100.0)  # seconds and % as printed
    if not (low - 0.5 <= total <= high + 0.5) or low <= header_s <= high:
        return
    report.db_time_s = total
    h = report.header
    report.issues.append(ParseIssue(
        "info", "header", h.db_time_line or h.line,
        f"DB time is {total:,.0f} s, the Total DB Time noted under the SQL section at line {line}, not the "
        f"header's {h.db_time_min:g} min ({header_s:,.1f} s): the report's shares are of it ('{top.name}' "
        f"{t:,.0f} s at {p:g} % of DB time is {t / p * 100:,.0f} s; line {top.line})"))


def _response_time_8i(report: Report) -> float | None:
    cpu = report.stat_total("CPU used by this session")
    allw = report.sections.get("wait_events")
    if cpu is None or allw is None:
        return None
    bg = report.sections.get("wait_events_bg")
    fg_wait = 0.0
    for r in allw.rows:
        if not r.name or is_idle_row(r.name, r.text):
            continue
        t = r.get("time_s") or 0.0
        b = bg.row(r.name) if bg else None
        if b is not None:
            t -= b.get("time_s") or 0.0
        fg_wait += max(t, 0.0)
    return cpu / 100.0 + fg_wait
