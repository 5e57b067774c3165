"""From bytes or text to a :class:`~awrscope.model.Report`, whatever the input family.

``source`` reads files and archives, ``detect`` names the family, and one package per
family turns the text into the typed model: ``report`` (AWR and Statspack, text and
HTML), ``ash`` (ASH reports, text and HTML) and ``addm`` (ADDM text reports). A kind
that is recognised but has no family is refused with :class:`UnsupportedReportError`.
Each family is imported when first needed. ``parse_text`` is pure; ``parse_path`` reads files.
"""
from __future__ import annotations

import os
import re
import shlex

from ..errors import OTHER_COMMAND, InputError, NotAReportError, OtherCommandError, UnsupportedReportError
from ..model import Header, Report, Row
from .detect import TITLE_NAMES, detect
from .source import Source, decode, looks_binary, read_sources

_FAMILIES = ("awr", "statspack", "awr_global", "awr_diff", "ash", "addm")
#: Kinds recognised without a reader, as a DBA names them
_RECOGNISED = {"awr_sql": "an AWR SQL report (awrsqrpt.sql: one statement's plans and statistics, not an instance "
                          "report)"}


def parse_source(src: Source) -> Report:
    if not src.data.strip():
        raise NotAReportError(f"{src.name}: the file is empty", "empty")
    if looks_binary(src.data):
        raise NotAReportError(f"{src.name}: binary data, not an AWR or Statspack report", "binary")
    text, _encoding = decode(src.data)
    report = parse_text(text, name=src.name)
    report.source_path = src.name
    report.source_sha256 = src.sha256
    report.source_bytes = src.size
    return report


def parse_path(path: str) -> list[Report]:
    return [parse_source(s) for s in read_sources(path)]


def parse_text(text: str, name: str = "<text>") -> Report:
    det = detect(text)
    if det.kind is None:
        if det.claimed and det.format == "html" and not _DOCUMENT.search(text[:20000]):
            # report markup with no <html> document around it: cut from a page, or quoted in a program
            raise NotAReportError(f"{name}: the markup of {TITLE_NAMES[det.claimed]} without the HTML document around "
                                  "it (no <html> start): a part cut from a report page; give awrscope the awrrpt "
                                  "output as it was written")
        if det.claimed:  # a title with prose under it, or a report whose header and sections are gone
            raise NotAReportError(f"{name}: not an AWR or Statspack report (the title of {TITLE_NAMES[det.claimed]}, "
                                  "without the header and sections a report prints under it)")
        head = text[:20000]
        sections = _excerpt_sections(text[:200_000])
        if "---|---" in head and (sections or any(t in head.upper() for t in ("WORKLOAD REPOSITORY", "STATSPACK"))):
            # seen in the wild: an AWR HTML page saved through an HTML-to-Markdown converter
            raise NotAReportError(f"{name}: a report converted to Markdown ('|' tables), not the report Oracle "
                                  "wrote: give awrscope the original awrrpt/spreport output (text or HTML)")
        if sections:  # pasted from a ticket, a forum or a mail: the sections without the title and header
            raise NotAReportError(f"{name}: an excerpt of an AWR or Statspack report ({', '.join(sections)}) without "
                                  "the report's title and header: awrscope reads whole reports; give it the awrrpt/"
                                  "spreport output from its first line", "report excerpt (no header)")
        if _TRACE_RECORD.search(text, 0, 2_000_000):
            raise OtherCommandError(f"{name}: an Oracle SQL trace file (10046), not an AWR or Statspack report"
                                    f"{OTHER_COMMAND}trace {shlex.quote(name)}`", "SQL trace: see awrscope trace")
        raise NotAReportError(f"{name}: not an AWR or Statspack report (no report header found)")
    if det.kind not in _FAMILIES:
        what = _RECOGNISED.get(det.kind, f"a {det.kind} report")
        raise UnsupportedReportError(f"{name}: {what}: recognised, but awrscope does not read it", det.kind)
    if det.kind == "addm" and det.format == "html":  # addmrpt writes text; an HTML ADDM page has no reader
        raise UnsupportedReportError(f"{name}: an ADDM report in HTML: awrscope reads ADDM text reports only "
                                     "(addmrpt.sql)", det.kind)
    try:
        if det.kind == "ash":
            from .ash import parse_ash

            return parse_ash(det, text)
        if det.kind == "addm":
            from .addm import parse_addm

            return parse_addm(det, text)
        from .report import parse_report  # the AWR/Statspack family

        return parse_report(det, text)
    except NotAReportError as e:  # every message names its file
        raise NotAReportError(f"{name}: {e}") from None


_DOCUMENT = re.compile(r"<(?:!doctype\s+html|html)\b", re.I)

#: A record line of an extended SQL trace (10046), as `awrscope trace` reads them
_TRACE_RECORD = re.compile(r"^(?:PARSING IN CURSOR #|(?:PARSE|EXEC|FETCH|WAIT|CLOSE|STAT|BINDS) #\d+:)", re.M)

#: Section titles that only AWR and Statspack reports print, as they print them: their presence without a report
#: header is an excerpt
_SECTION_TITLES = ("Top 5 Timed Events", "Top 5 Timed Foreground Events", "Top 10 Foreground Events by Total Wait Time",
                   "Load Profile", "Instance Efficiency Percentages", "Time Model Statistics", "Foreground Wait Events",
                   "Wait Events for DB", "SQL ordered by Elapsed Time", "SQL ordered by CPU Time")


def _excerpt_sections(text: str) -> list[str]:
    """The report section titles ``text`` holds where a report prints them, at a line's start or a tag's end (not
    in a sentence of notes about AWR)."""
    # as a title: alone on its line, before its columns (two spaces), its 'DB/Inst:' or a tag; not in a sentence
    rx = re.compile(r"(?:^[ \t]*|>)(" + "|".join(map(re.escape, _SECTION_TITLES)) + r")(?=[ \t]*$|[ \t]{2}|\s*<|\s+DB/Inst)",
                    re.M)
    return list(dict.fromkeys(m.group(1) for m in rx.finditer(text)))[:3]


def parse(path_or_text: str | os.PathLike) -> Report:
    """Parse one report from a path, or from the report text itself."""
    s = os.fspath(path_or_text)
    if "\n" not in s and len(s) < 4096 and (os.path.exists(s) or not s.strip().startswith("<")):
        reports = parse_path(s)
        if len(reports) != 1:
            raise InputError(f"{s}: holds {len(reports)} reports; use parse_path() for archives")
        return reports[0]
    return parse_text(s)


__all__ = ["parse", "parse_path", "parse_text", "parse_source", "Header", "Row"]
