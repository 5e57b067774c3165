"""Split a text report into raw sections in one pass over its lines (spec A.2).

A section starts at a title line, recognised structurally rather than from a
fixed list, so unknown sections are still delimited:

* a line followed by a ``~~~~`` underline (summary page); the title is the part
  of the line above the tildes (the rest of the line is column header text);
* a line carrying the ``DB/Inst:`` (AWR, Statspack 10g+), ``for DB:`` or
  ``DB: x Instance: y`` (Statspack 8i/9i) suffix, possibly glued to a title cut
  at 80 columns.

Consecutive sections with the same title are page-break continuations and are
merged by the caller.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_SUFFIX = re.compile(r"\s*(?:DB/Inst:|for DB:|DB:\s+\S+\s+Instance:|DB/Inst/Snaps?:).*$")


@dataclass(slots=True)
class RawSection:
    title: str
    line: int  # 1-based line of the title
    lines: list[str] = field(default_factory=list)  # body lines after the title line
    first_body_line: int = 0  # 1-based number of lines[0]
    rest_of_title_line: str = ""  # text to the right of a summary-page title (column headers)


def split_sections(lines: list[str]) -> tuple[list[str], list[RawSection]]:
    """Return (preamble lines before the first title, sections)."""
    sections: list[RawSection] = []
    preamble: list[str] = []
    current: list[str] = preamble
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        title = None
        rest = ""
        if line.strip():
            nxt = lines[i + 1] if i + 1 < n else ""
            stripped_next = nxt.lstrip()
            if stripped_next.startswith("~~~") and line.strip() and not line.lstrip().startswith("~"):
                indent = len(nxt) - len(stripped_next)
                run = len(stripped_next) - len(stripped_next.lstrip("~"))
                cut = indent + run
                title = line[:cut].strip()
                rest = " " * cut + line[cut:] if line[cut:].strip() else ""
                if not title:  # title longer than its underline is impossible; keep whole line
                    title = line.strip()
            elif ("DB/Inst:" in line or "for DB:" in line or ("Snaps:" in line and "DB:" in line)) and not line.startswith("->"):
                title = _SUFFIX.sub("", line).strip()
            elif _bare_title(line, lines[i - 1] if i else "", nxt):
                title = line.strip()
        if title:
            sec = RawSection(title=title, line=i + 1, rest_of_title_line=rest)
            sections.append(sec)
            current = sec.lines
            sec.first_body_line = i + 2
        else:
            current.append(line)
        i += 1
    return preamble, sections


def _bare_title(line: str, prev: str, nxt: str) -> bool:
    """A known section title printed without its DB/Inst suffix (excerpts pasted into
    documents): a line at column 0, alone between blank lines, that the section
    registry recognises."""
    if line[:1].isspace() or prev.strip() or nxt.strip() or len(line.strip()) > 80:
        return False
    from ..sections import lookup  # the registry knows every mapped title family

    return lookup(line.strip()) is not None


def normalise_title(title: str) -> str:
    return " ".join(title.lower().split())
