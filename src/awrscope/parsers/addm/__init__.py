"""The ADDM family: ``addmrpt.sql`` text reports, 10g and 11g+ layouts.

An ADDM report is prose, not tables: its header is a few sentences (11g+: ``AWR snapshot
range from 5 to 7.``, ``Total database time was 14 seconds.``) or labelled lines (10g:
``Snapshot Range: from 2821 to 2835``), and each finding is a heading (``Finding 1: Top SQL
Statements`` / ``Impact is 1.1 active sessions, 30.1% of total activity.``; 10g: ``FINDING 1:
59% impact (944 seconds)``). Sentences may wrap anywhere, so they are matched on the text
with white space folded, and a match's line is where it starts.

The findings become ``addm_findings`` with the fields of the AWR-embedded *Top ADDM Findings*
(``parsers.report.sections.misc.map_addm_findings``), so ``rules.addm`` reads both alike.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from ...errors import NotAReportError
from ...model import Header, Instance, ParseIssue, Report, Row, Snapshot, make_section
from ..detect import Detected
from ..numbers import parse_number
from ..timefmt import parse_time
from ... import patterns

NO_FINDINGS = "ADDM found nothing to report ('There are no findings to report')"

_TASK = patterns.compile(r"ADDM Report for Task\s+'([^']*)'", re.I)
_SNAPS = patterns.compile(r"AWR snapshot range from (\d+) to (\d+)|Snapshot Range:\s*from (\d+) to (\d+)", re.I)
_STARTS = patterns.compile(r"Time period starts at\s+(\S+\s+[\d.:]+(?:\s*[AP]M)?)", re.I)
_ENDS = patterns.compile(r"Time period ends at\s+(\S+\s+[\d.:]+(?:\s*[AP]M)?)", re.I)
# 10g: 'Analysis Period: 20-MAR-2010 from 08:01:06 to 22:00:07' or '... from D T to D T'
_PERIOD_10G = patterns.compile(r"Analysis Period:\s*(\S+)?\s*from\s+(\S+(?:\s+[\d:.]+)?)\s+to\s+(\S+(?:\s+[\d:.]+)?)", re.I)
_DATABASE = patterns.compile(r"Database '([^']+)' with DB ID (\d+)", re.I)
_VERSION = patterns.compile(r"Database version:?\s+(\d+(?:\.\d+)+)", re.I)
# 'ADDM performed an analysis of instance X, numbered N and hosted at H.'; when all instances were asked for
# and one was analysed: 'Analysis was requested for all instances, but ADDM analyzed instance X, numbered N ...'
_INSTANCE = patterns.compile(r"(?:analysis of|analyzed) instance (\S+?), numbered (\d+)(?: and hosted at (\S+?))?\.?(?:\s|$)",
                             re.I)
# The last section of every ADDM report: a report that reached it is whole, 'End of Report' or not (addmrpt.sql
# prompts that line after 'spool off', so a spooled file never holds it; a terminal capture does).
_LAST_SECTION = patterns.compile(r"^\s*Additional Information\s*$", re.I | re.M)
_IDS_10G = patterns.compile(r"Database ID/Instance:\s*(\d+)/(\d+)", re.I)
_NAMES_10G = patterns.compile(r"Database/Instance Names:\s*([^/\s]+)/(\S+)", re.I)
_HOST_10G = patterns.compile(r"Host Name:\s*(\S+)", re.I)
_DB_TIME = patterns.compile(r"Total database time was ([\d.,]+) seconds|Database Time:\s*([\d.,]+) seconds", re.I)
_AAS = patterns.compile(r"average number of active sessions was ([\d.,]+)|Average Database Load:\s*([\d.,]+) active",
                        re.I)
_FINDING = patterns.compile(r"^Finding (\d+):\s*(\S.*?)\s*$")
_IMPACT = patterns.compile(r"Impact is ([\d.,]+) active sessions?, ([\d.,]+)% of total activity", re.I)
_FINDING_10G = patterns.compile(r"^FINDING (\d+):\s*([\d.,]+)% impact \(([\d.,]+) seconds\)")


def parse_addm(det: Detected, text: str) -> Report:
    """The typed Report of the ADDM report ``det`` detected in ``text``."""
    lines = text.replace("\f", "").splitlines()
    flat, starts = _fold(lines)
    issues: list[ParseIssue] = []
    h = Header(line=_line_of(flat, starts, _TASK.search(flat)) or 1)
    task = _TASK.search(flat)
    task_name = task.group(1) if task else None
    _header(h, flat, starts)
    report = Report(kind="addm", format="text", version=h.version or det.version, header=h, sections={},
                    issues=issues, generation="addm")
    printed_aas = _times(report, flat, starts)
    rows = _findings(lines, report, task_name, printed_aas)
    if rows:
        units = {"aas": "sessions", "pct_active_sessions": "%", "task_name": "text", "begin": "text", "end": "text"}
        first = rows[0].line
        report.sections["addm_findings"] = make_section("addm_findings", "ADDM Findings", first, units, rows)
    elif re.search(r"There are no findings to report", flat, re.I):
        m = re.search(r"There are no findings to report", flat, re.I)
        issues.append(ParseIssue("info", "addm_findings", _line_of(flat, starts, m), NO_FINDINGS))
    elif re.search(r"^\s*Finding \d+:|^FINDING \d+:", text, re.M):
        issues.append(ParseIssue("warning", "addm_findings", None, "findings are printed but none could be read"))
    _check(report, text)
    return report


def _fold(lines: list[str]) -> tuple[str, list[int]]:
    """The text with each line's white space folded to single spaces, lines joined by one
    space (sentences wrap), and the offset where each line starts."""
    parts, starts, pos = [], [], 0
    for line in lines:
        s = " ".join(line.split())
        starts.append(pos)
        parts.append(s)
        pos += len(s) + 1
    return " ".join(parts), starts


def _line_of(flat: str, starts: list[int], m) -> int | None:
    if m is None:
        return None
    from bisect import bisect_right

    return bisect_right(starts, m.start())  # 1-based: the index of the last line starting at or before


def _header(h: Header, flat: str, starts: list[int]) -> None:
    m = _DATABASE.search(flat)
    if m:
        h.db_name, h.dbid = m.group(1), int(m.group(2))
    m = _VERSION.search(flat)
    if m:
        h.version = m.group(1)
    m = _INSTANCE.search(flat)
    if m:
        h.host = m.group(3)
        h.instances = [Instance(m.group(1), int(m.group(2)), h.host)]
    m10 = _IDS_10G.search(flat)
    if m10:
        h.dbid = h.dbid or int(m10.group(1))
    names = _NAMES_10G.search(flat)
    host = _HOST_10G.search(flat)
    if host and not h.host:
        h.host = host.group(1)
    if names or m10:
        h.db_name = h.db_name or (names.group(1) if names else None)
        if not h.instances:
            h.instances = [Instance(names.group(2) if names else None, int(m10.group(2)) if m10 else None, h.host)]
    m = _SNAPS.search(flat)
    if m:
        b, e = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        line = _line_of(flat, starts, m)
        h.begin, h.end = Snapshot(int(b), None, line=line), Snapshot(int(e), None, line=line)


def _times(report: Report, flat: str, starts: list[int]) -> float | None:
    """Begin and end times (11g+: 'Time period starts at 20-OCT-24 07.51.14 PM'; 10g:
    'Analysis Period: 20-MAR-2010 from 08:01:06 to 22:00:07'), elapsed = end - begin, and
    the DB time ADDM prints. Returns the average active sessions it prints."""
    h = report.header
    b = e = None
    mb, me = _STARTS.search(flat), _ENDS.search(flat)
    if mb and me:
        b, e = _clock(mb.group(1)), _clock(me.group(1))
    else:
        m = _PERIOD_10G.search(flat)
        if m:
            day = m.group(1) or ""
            b, e = _clock(f"{day} {m.group(2)}".strip()), _clock(f"{day} {m.group(3)}".strip())
            mb = me = m
    line_b, line_e = _line_of(flat, starts, mb), _line_of(flat, starts, me)
    h.begin = Snapshot(h.begin.snap_id if h.begin else None, b, line=line_b or (h.begin.line if h.begin else None))
    h.end = Snapshot(h.end.snap_id if h.end else None, e, line=line_e or (h.end.line if h.end else None))
    if b and e and e > b:
        report.elapsed_s = (e - b).total_seconds()
        h.elapsed_min, h.elapsed_line = report.elapsed_s / 60.0, line_b
    elif b or e:
        report.warn("the analysis period's begin and end times could not both be read", "header", line_b or line_e)
    m = _DB_TIME.search(flat)
    if m:
        report.db_time_s = parse_number(m.group(1) or m.group(2)).value
        if report.db_time_s is not None:
            h.db_time_min, h.db_time_line = report.db_time_s / 60.0, _line_of(flat, starts, m)
    m = _AAS.search(flat)
    return parse_number(m.group(1) or m.group(2)).value if m else None


_AMPM = patterns.compile(r"\b([AP])M\b", re.I)


def _clock(s: str) -> datetime | None:
    """'20-OCT-24 07.51.14 PM' (ADDM prints a 12-hour clock) or '20-MAR-2010 08:01:06'."""
    t = parse_time(s)
    if t is None:
        return None
    m = _AMPM.search(s)
    if m:
        pm = m.group(1).upper() == "P"
        if pm and t.hour < 12:
            t += timedelta(hours=12)
        elif not pm and t.hour == 12:
            t -= timedelta(hours=12)
    return t


def _findings(lines: list[str], report: Report, task_name: str | None, printed_aas: float | None) -> list[Row]:
    """One row per finding: its name, the task's average active sessions (``aas``, as in the
    AWR-embedded table: the finding's are aas x pct / 100) and its percent of them."""
    h = report.header
    task_aas = _task_aas(report, printed_aas)
    text = {"task_name": task_name} if task_name else {}
    if h.begin and h.begin.time and h.end and h.end.time:  # the task's window, as the HTML table prints it
        text.update(begin=h.begin.time.strftime("%d-%b-%y %H:%M"), end=h.end.time.strftime("%d-%b-%y %H:%M"))
    rows: list[Row] = []
    for i, line in enumerate(lines):
        m = _FINDING.match(line.strip())
        if m:
            impact = _IMPACT.search(" ".join(" ".join(lines[i + 1:i + 4]).split()))
            if impact is None:
                report.warn(f"finding '{m.group(2)}': no 'Impact is ...' line", "addm_findings", i + 1)
                continue
            f_aas, pct = parse_number(impact.group(1)).value, parse_number(impact.group(2)).value
            aas = task_aas if task_aas else (f_aas * 100.0 / pct if f_aas is not None and pct else None)
            rows.append(Row(m.group(2), i + 1, {"aas": aas, "pct_active_sessions": pct}, dict(text)))
            continue
        m = _FINDING_10G.match(line.strip())
        if m:
            rows.append(Row(_description(lines, i), i + 1,
                            {"aas": task_aas, "pct_active_sessions": parse_number(m.group(2)).value}, dict(text)))
    return rows


def _task_aas(report: Report, printed: float | None) -> float | None:
    """The task's average active sessions: DB time over the period where both are printed
    (the printed average is rounded, to 0 on a quiet database), else the printed average."""
    if report.db_time_s and report.elapsed_s:
        return report.db_time_s / report.elapsed_s
    return printed or None


def _description(lines: list[str], i: int) -> str:
    """A 10g finding has no name: its first sentence (after the dashes) stands in for one."""
    words: list[str] = []
    for line in lines[i + 1:i + 8]:
        s = line.strip()
        if not s or set(s) <= {"-"}:
            if words:
                break
            continue
        words.append(s)
        if s.endswith("."):
            break
    return " ".join(" ".join(words).split())[:200] or f"Finding {i + 1}"


def _check(report: Report, text: str) -> None:
    h = report.header
    if report.elapsed_s is None and "addm_findings" not in report.sections and not h.db_name:
        raise NotAReportError("an ADDM report title, but neither its analysis period, its database nor a finding "
                              "could be read: the ADDM report is damaged or truncated")
    if report.elapsed_s is None:
        report.warn("no analysis period could be read: elapsed time unknown", "header", h.line)
    if "end of report" in text[-3000:].lower():
        return
    if _LAST_SECTION.search(text) is not None:
        report.issues.append(ParseIssue("info", None, None, "the report ends without 'End of Report', after its last "
                                        "section ('Additional Information'), as the files addmrpt.sql spools do: "
                                        "its findings are all there"))
    else:
        report.warn("the report ends before its last section ('Additional Information') and without 'End of "
                    "Report': it may be truncated; findings after the cut are missing")


__all__ = ["NO_FINDINGS", "parse_addm"]
