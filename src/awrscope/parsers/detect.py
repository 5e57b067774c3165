"""Report kind, format and version detection (spec A.1).

Looks only at the head of the text (bounded), never the whole file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_HEAD = 200_000

_TEXT_SIGNATURES = [
    # (literal every match holds, lower case; regex; kind): first match wins. The literal is
    # looked for first: a failing multiline regex costs a scan of the whole head, a find far less.
    ("compare period", re.compile(r"^\s*WORKLOAD REPOSITORY COMPARE PERIOD REPORT", re.M | re.I), "awr_diff"),
    ("workload repository", re.compile(r"^\s*WORKLOAD REPOSITORY (?:REPORT \(RAC\)|RAC report|Global report)",
                                       re.M | re.I), "awr_global"),
    ("statspack", re.compile(r"^\s*STATSPACK (?:report|Statistics Report) for", re.M | re.I), "statspack"),
    ("workload repository sql report", re.compile(r"^\s*WORKLOAD REPOSITORY SQL Report", re.M | re.I), "awr_sql"),
    ("workload repository", re.compile(r"^\s*WORKLOAD REPOSITORY (?:PDB )?report", re.M | re.I), "awr"),
    ("ash report for", re.compile(r"^\s*ASH Report For", re.M | re.I), "ash"),
    ("addm report for task", re.compile(r"ADDM Report for Task", re.I), "addm"),
]
_HTML_TITLE = re.compile(r"<title>\s*(.*?)\s*</title>", re.I | re.S)
_HTML_KINDS = [
    (re.compile(r"Compare Period", re.I), "awr_diff"),
    (re.compile(r"AWR RAC Report|RAC Report for|Global.*Report|awrgrpt", re.I), "awr_global"),
    (re.compile(r"^ASH Report", re.I), "ash"),
    (re.compile(r"ADDM", re.I), "addm"),
    (re.compile(r"Statspack", re.I), "statspack"),
    (re.compile(r"AWR SQL Report|Workload Repository SQL Report", re.I), "awr_sql"),
    (re.compile(r"AWR.*Report|Workload Repository", re.I), "awr"),
]
_RELEASE = re.compile(r"\b(\d{1,2}\.\d\.\d\.\d\.\d{1,2}(?:\.\d+)?)\b")


@dataclass(frozen=True, slots=True)
class Detected:
    kind: str | None  # awr | statspack | awr_global | awr_diff | ash | addm | awr_sql (recognised only) | None
    format: str  # text | html
    version: str | None


def detect(text: str) -> Detected:
    head = text[:_HEAD]
    lower = head[:20000].lower()
    if "<html" in lower or "<table" in lower or "<!doctype html" in lower:
        kind = None
        m = _HTML_TITLE.search(head)
        if m:
            title = m.group(1)
            for rx, k in _HTML_KINDS:
                if rx.search(title):
                    kind = k
                    break
        if kind is None:
            kind = _text_kind(head)
        if kind is None and ('summary="This table displays' in head or 'class="awr' in head):
            kind = "awr"
        return Detected(kind, "html", _release(head))
    return Detected(_text_kind(head), "text", _release(head))


def _text_kind(head: str) -> str | None:
    low = head.lower()
    for needle, rx, kind in _TEXT_SIGNATURES:
        if needle in low and rx.search(head):
            return kind
    return None


def _release(head: str) -> str | None:
    m = _RELEASE.search(head)
    return m.group(1) if m else None
