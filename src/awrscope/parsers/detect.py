"""Report kind, format and version detection (spec A.1).

A report is recognised by its skeleton, not by a phrase: a title line, then within a few lines the
structure its kind always prints (issue 29: a source file that quotes 'ADDM Report for Task' in a regex
and a web template were taken for reports). AWR and Statspack, text and HTML, single instance, RAC
global, compare-period and AWR SQL reports: the header table (DB Name / DB Id / Instance, or the
compare-period snapshot-set table, or the RAC database summary), the Begin/End Snap rows and known
section titles (:data:`awrscope.oracle.sections.SECTION_TITLES` and a few more). ASH: its header
(Analysis Begin Time, Sample Count / Average Active Sessions) and its section titles. ADDM: the task
title, the analysis period lines and a findings structure.

A report cut short is still one: when the text ends before the skeleton could be complete, what there
is must fit it (the first structural line right after the title), and the parsers then say what is
missing. Only the head is looked at (bounded), and only a bounded window of lines after each title.
"""
from __future__ import annotations

import re
from msgspec import Struct
from .. import patterns


_HEAD = 200_000
#: lines after the title in which the skeleton must be complete: the corpus's reports complete it within 80
_WINDOW = 200
#: non-blank lines after the title within which the first structural line must come: real reports print
#: it next (AWR SQL: after 'Snapshot Period Summary'; ADDM: after the title's underline; HTML: after the
#: <h1> that repeats the <title>)
_LEAD = 3
#: title lines tried per kind, and occurrences of its literal looked at: a file quoting a title many times
#: costs no more than this
_MAX_TITLES = 20
_MAX_HITS = 200

_TITLES = [
    # (literal every match holds, lower case; title at a line start; kind): tried in this order, a line
    # claimed by one kind is not tried for the next (a RAC title also reads as an AWR one). The literal
    # is looked for first: a find costs far less than a failing multiline regex over the head.
    ("compare period", r"WORKLOAD REPOSITORY COMPARE PERIOD REPORT", "awr_diff"),
    ("workload repository", r"WORKLOAD REPOSITORY (?:REPORT \(RAC\)|RAC report|Global report)", "awr_global"),
    ("statspack", r"STATSPACK (?:report|Statistics Report) for", "statspack"),
    ("workload repository sql report", r"WORKLOAD REPOSITORY SQL Report", "awr_sql"),
    ("workload repository", r"WORKLOAD REPOSITORY (?:PDB )?report", "awr"),
    ("ash report for", r"ASH Report For", "ash"),
    ("addm report for task", r"(?:DETAILED )?ADDM Report for Task", "addm"),
]
# SQL*Plus spools start lines with form feeds at page breaks
_TITLE_RX = [(needle, patterns.compile(r"[ \t\f]*" + rx, re.I), kind) for needle, rx, kind in _TITLES]
_HTML_KINDS = [
    (patterns.compile(r"Compare Period", re.I), "awr_diff"),
    (patterns.compile(r"AWR RAC Report|RAC Report for|Global.*Report|awrgrpt", re.I), "awr_global"),
    (patterns.compile(r"^ASH Report", re.I), "ash"),
    (patterns.compile(r"ADDM", re.I), "addm"),
    (patterns.compile(r"Statspack", re.I), "statspack"),
    (patterns.compile(r"AWR SQL Report|Workload Repository SQL Report", re.I), "awr_sql"),
    (patterns.compile(r"AWR.*Report|Workload Repository", re.I), "awr"),
]
_RELEASE = patterns.compile(r"\b(\d{1,2}\.\d\.\d\.\d\.\d{1,2}(?:\.\d+)?)\b")

# -- the skeleton's lines, matched on the line lower-cased with single spaces --------------------------

# Titles AWR prints that no mapper reads: summary and group headings, the RAC global and compare-period
# headers' tables, the AWR SQL report's parts.
_MORE_AWR_TITLES = (
    r"^report summary|^main report|^service statistics|^service wait class stats|^sql statistics"
    r"|^wait events statistics|^instance activity statistics|^io stats|^advisory statistics|^wait statistics"
    r"|^undo statistics|^latch statistics|^segment statistics|^dictionary cache stats|^library cache activity"
    r"|^sga memory summary|^sga breakdown difference|^shared pool statistics|^resource limit stats"
    r"|^configuration comparison|^host configuration comparison|^database summary"
    r"|^database instances included in report|^os statistics by instance|^global activity load profile"
    r"|^global cache load profile|^global cache efficiency percentages|^rac statistics|^time model"
    r"|^top timed events|^top sql comparison|^snapshot period summary|^sql summary|^sql id: ?\w"
    r"|^plan statistics|^execution plan"
)
_MORE_AWR_TITLE = patterns.compile(_MORE_AWR_TITLES)


def _awr_title(norm: str) -> str | None:
    """The known section title a line starts with: the section registry's own compiled patterns (the parser
    needs them anyway; one alternation of all of them cost 10 ms to compile on every run) and a few headings."""
    from .report.sections import REGISTRY

    for spec in REGISTRY:
        m = spec.pattern.match(norm)
        if m:
            return m.group(0)
    m = _MORE_AWR_TITLE.match(norm)
    return m.group(0) if m else None
_ASH_TITLE = patterns.compile(
    r"^top (?:user events|background events|event p1/p2/p3 values|service/module|client ids"
    r"|sql command types|phases of execution|sql with top events|sql with top row sources|sql statements"
    r"|sql using literals|parsing module/action|pl/sql procedures|java workload|call types|sessions"
    r"|blocking sessions|db objects|db files|latches|containers)"
    r"|^activity over time|^complete list of sql text")
_ASH_HEADER = ("analysis begin time:", "analysis end time:", "sample count:", "average active sessions:")
_ADDM_PERIOD = patterns.compile(r"^(?:analysis period|awr snapshot range from|time period (?:starts|ends) at"
                                r"|analysis target|database id/instance:|snapshot range:|database '[^']*' with db id)")
_ADDM_FINDINGS = patterns.compile(r"^(?:summary of findings|findings and recommendations"
                                  r"|there are no findings to report|finding \d+:)")
# the end of a line that opens a quotation: a triple-quoted string (a trailing backslash joins the next
# line), a fenced block, a here-document
_OPENER = patterns.compile(r"(?:\"{3}|'{3}|`{3}|<<-?\s*['\"]?\w+['\"]?)\\?\s*$")
_RULE = patterns.compile(r"^\s*[-~]{2,}(?:[ \t]+[-~]{2,})+\s*$")
_UNDERLINE = patterns.compile(r"^\s*[-~]{3,}[-~ \t]*$")

#: what a title line names, for the message when no report follows it
TITLE_NAMES = {"awr": "an AWR report", "statspack": "a Statspack report", "awr_global": "a RAC (global) AWR report",
               "awr_diff": "a compare-period AWR report", "awr_sql": "an AWR SQL report", "ash": "an ASH report",
               "addm": "an ADDM report"}
_FAMILY = {"awr": "awr", "statspack": "awr", "awr_global": "awr", "awr_diff": "awr", "awr_sql": "awr",
           "ash": "ash", "addm": "addm"}


class Detected(Struct, frozen=True):
    kind: str | None  # awr | statspack | awr_global | awr_diff | ash | addm | awr_sql (recognised only) | None
    format: str  # text | html
    version: str | None
    #: with kind None: the kind a title line claims when no report's structure follows it (for the message)
    claimed: str | None = None


def detect(text: str) -> Detected:
    head = text[:_HEAD]
    whole = len(text) <= _HEAD  # the head is the text: a window that runs past its end was cut short
    if "\r" in head:  # CR LF, and lone CRs (old Mac editors): the parsers read both as line ends
        head = head.replace("\r\n", "\n").replace("\r", "\n")
    lower = head[:20000].lower()
    if "<html" in lower or "<table" in lower or "<!doctype html" in lower:
        kind, claimed = _html_kind(head, whole)
        if kind is None:  # a text report whose SQL text quotes markup
            text_kind, text_claimed = _text_kind(head, whole)
            if text_kind:
                return Detected(text_kind, "text", _release(head))
            claimed = claimed or text_claimed
        return Detected(kind, "html", _release(head), None if kind else claimed)
    kind, claimed = _text_kind(head, whole)
    return Detected(kind, "text", _release(head), None if kind else claimed)


def _text_kind(head: str, whole: bool) -> tuple[str | None, str | None]:
    """(kind, claimed): the first title line whose skeleton follows it, else the first title seen."""
    low = head.lower()
    taken: set[int] = set()
    claimed = None
    for needle, rx, kind in _TITLE_RX:
        pos, tried, hits = low.find(needle), 0, 0
        while pos >= 0 and tried < _MAX_TITLES and hits < _MAX_HITS:
            hits += 1
            start = head.rfind("\n", 0, pos) + 1
            if start not in taken and rx.match(head, start):
                taken.add(start)
                tried += 1
                if not _quoted(head, start):
                    claimed = claimed or kind
                    parts = head[start:].split("\n", _WINDOW + 1)
                    verdict = _skeleton(kind, parts[1:_WINDOW + 1], False)
                    if verdict or (verdict is None and whole):
                        return kind, None
            pos = low.find(needle, pos + len(needle))
    return None, claimed


def _quoted(head: str, start: int) -> bool:
    """Whether the line before ``start`` (blank lines aside) opens a quotation: a string, a fenced block or
    a here-document. Source code and documents quote whole reports to test or show them."""
    before = head[max(0, start - 2000):start].rstrip()
    return bool(_OPENER.search(before[before.rfind("\n") + 1:]))


# -- HTML: the head made into lines (a row per line, its cells split by tabs), then the same skeleton --

# on the lower-cased head, at a line start; a <meta>, an <?xml?> or a comment may come first on that line (a page
# saved with its charset put before <html>)
_DOC_START = patterns.compile(r"[ \t]*(?:<(?:meta\b|\?xml|!--)[^>\n]*>[ \t]*)*<(?:!doctype\s+html|html)\b")
_DROP = patterns.compile(r"<(style|script)\b.*?(?:</\1\s*>|\Z)|<!--.*?(?:-->|\Z)", re.I | re.S)
_CELL = patterns.compile(r"<t[dh]\b[^>]*>", re.I)
_TITLE_TAG = patterns.compile(r"<title\b[^>]*>", re.I)
_BREAK = patterns.compile(r"<(?:/?(?:tr|h\d|p|table|li|ul|ol|div|title|head|body|pre|caption)|br)\b[^>]*>", re.I)
_TAG = patterns.compile(r"<[^>]*>")
_TITLE_MARK = "\x01"
#: characters of the document made into lines first, and lines looked at for its title
_HTML_GLANCE, _HTML_FIRST = 16_384, 65_536
_HTML_TITLE_LINES = 40
_AWR_STYLE = ('class="awr', "class='awr", 'summary="This table displays')


def _html_kind(head: str, whole: bool) -> tuple[str | None, str | None]:
    # The document must start at a line start and not inside a quotation: a report's markup in source
    # code (a test's minimal report in a string) follows code on its line or opens a string before it.
    start = _doc_start(head)
    if start < 0:
        return None, None
    doc = head[start:]
    # Most of the head is tables far past the skeleton: a first slice mostly decides (16 KB for every HTML report
    # of the corpus: detection 0.17 -> 0.10 s over it); a slice that ends inside the skeleton leaves it undecided
    # and the next, longer one is read.
    for size in (_HTML_GLANCE, _HTML_FIRST, _HEAD):
        part = size < len(doc)
        styled = any(mark in doc[:size] for mark in _AWR_STYLE)
        kind, claimed, verdict = _html_skeleton(_html_lines(doc[:size]), styled)
        if verdict or (verdict is None and not part and whole):
            return kind, None
        if verdict is not None or not part:
            break
    return None, claimed


def _doc_start(head: str) -> int:
    """Where the document starts: the first <html> or <!doctype html> at a line start, not quoted; -1."""
    low = head.lower()
    found = -1
    for tag in ("<html", "<!doctype"):
        pos, hits = low.find(tag), 0
        while pos >= 0 and hits < _MAX_HITS and (found < 0 or pos < found):
            hits += 1
            start = low.rfind("\n", 0, pos) + 1
            if _DOC_START.match(low, start) and not _quoted(head, start):
                found = start
                break
            pos = low.find(tag, pos + len(tag))
    return found


def _html_skeleton(lines: list[str], styled: bool) -> tuple[str | None, str | None, bool | None]:
    """(kind, claimed, verdict) for the first title in the lines whose skeleton follows it; verdict None: the
    lines end inside the window. ``styled``: the page wears AWR's own classes, so an AWR skeleton without a
    title line counts."""
    candidates = []
    for i, line in enumerate(lines[:_HTML_TITLE_LINES]):
        if line.startswith(_TITLE_MARK):
            kind = next((k for rx, k in _HTML_KINDS if rx.search(line[1:].strip())), None)
        else:
            kind = next((k for _, rx, k in _TITLE_RX if rx.match(line)), None)
        if kind:
            candidates.append((i, kind))
    if not candidates and styled:
        candidates.append((-1, "awr"))
    claimed = candidates[0][1] if candidates else None
    undecided = None
    for i, kind in candidates:
        verdict = _skeleton(kind, lines[i + 1:i + 1 + _WINDOW], True)
        if verdict:
            return kind, None, True
        if verdict is None and undecided is None:
            undecided = kind
    if undecided:
        return undecided, claimed, None
    return None, claimed, False


def _sub_tags(rx, repl: str, h: str) -> str:
    """``rx.sub(repl, h)`` for a tag pattern ending in ``[^>]*>``: every match ends at a '>', so the text after
    the last '>' is left as it is. Searched, each '<' there would scan to the end in vain: 300,000 '<td "'
    (a 1.5 MB file that is no report) took 10 s."""
    last = h.rfind(">")
    return rx.sub(repl, h[:last + 1]) + h[last + 1:] if last + 1 < len(h) else rx.sub(repl, h)


def _html_lines(html: str) -> list[str]:
    """Rows and loose text of the markup, one per line; cells start with a tab. Line breaks in the source
    are dropped, not spaced: a mailer or a tool that hard-wraps HTML cuts tags and words with them."""
    h = _DROP.sub("", html).replace("\r", "").replace("\n", "")
    h = _sub_tags(_CELL, "\t", h)
    h = _sub_tags(_TITLE_TAG, "\n" + _TITLE_MARK, h)
    h = _sub_tags(_BREAK, "\n", h)
    h = _sub_tags(_TAG, "", h)
    h = h.replace("&nbsp;", " ").replace("&#160;", " ").replace("&amp;", "&")
    return [line for line in h.split("\n") if line.strip()]


# -- the skeleton --------------------------------------------------------------------------------------


def _skeleton(kind: str, after: list[str], html: bool) -> bool | None:
    """Whether the lines after a title line hold the report's skeleton: True, False, or None when they end
    before it is complete with nothing against it (the start of a report cut short, if the text ends there)."""
    family = _FAMILY[kind]
    seen: set[str] = set()
    titles: set[str] = set()
    tables: set[str] = set()  # titles with their table under them
    nonblank = 0
    started = False
    for k, line in enumerate(after):
        norm = " ".join(line.split()).lower()
        if not norm:
            continue
        nonblank += 1
        marks = _marks(family, norm, line, after, k, html)
        if marks:
            started = True
            for mark in marks:
                if mark.startswith("title:"):
                    titles.add(mark)
                elif mark.startswith("table:"):
                    tables.add(mark)
                else:
                    seen.add(mark)
        elif not started and nonblank >= _LEAD:
            return False  # prose or code after a title: the phrase is quoted, not printed by Oracle
        if _complete(family, seen, len(titles), len(tables)):
            return True
    return None if len(after) < _WINDOW else False


def _marks(family: str, norm: str, line: str, after: list[str], k: int, html: bool) -> list[str]:
    marks = []
    if family == "awr" or family == "ash":
        if ("db id" in norm or "snapshot ids" in norm) and _is_heading(line, after, k, html):
            marks.append("header")
    if family == "awr":
        if norm.startswith(("begin snap:", "end snap:")) or "begin snap id" in norm or "begin snap time" in norm:
            marks.append("snaps")
        title = _awr_title(norm)
        if title is not None:
            marks.append("title:" + title)
            if _ruled(after, k, html):
                marks.append("table:" + title)
        if norm.startswith("end of report"):
            marks.append("end")
    elif family == "ash":
        if norm.startswith(_ASH_HEADER):
            marks.append(norm.split(":", 1)[0])
        m = _ASH_TITLE.match(norm)
        if m:
            marks.append("title:" + m.group(0))
    else:
        if _ADDM_PERIOD.match(norm):
            marks.append("period")
        if _ADDM_FINDINGS.match(norm):
            marks.append("findings")
    return marks


def _is_heading(line: str, after: list[str], k: int, html: bool) -> bool:
    """A table's column headings: three cells or more (HTML), or a line ruled by dashes below (text)."""
    if html:
        return sum(1 for c in line.split("\t") if c.strip()) >= 3
    for nxt in after[k + 1:k + 8]:
        if nxt.strip():
            return bool(_RULE.match(nxt))
    return False


def _ruled(after: list[str], k: int, html: bool) -> bool:
    """Whether a table follows the title on line k: its underline or its column headings' dashes within
    a few lines (text; notes and headings may come first), a row next (HTML)."""
    seen = 0
    for nxt in after[k + 1:k + 12]:
        if not nxt.strip():
            continue
        seen += 1
        if ("\t" in nxt) if html else _UNDERLINE.match(nxt):
            return True
        if seen >= (2 if html else 8):
            break
    return False


def _complete(family: str, seen: set[str], titles: int, tables: int) -> bool:
    if family == "awr":
        # the header table, its snapshots and two sections; an excerpt without its header (a book's figure)
        # needs three sections with their tables
        return ("header" in seen and "snaps" in seen and titles >= 2) or tables >= 3
    if family == "ash":
        return ("analysis begin time" in seen and ("sample count" in seen or "average active sessions" in seen)
                and titles >= 2)
    return "period" in seen and "findings" in seen


def _release(head: str) -> str | None:
    m = _RELEASE.search(head)
    return m.group(1) if m else None
