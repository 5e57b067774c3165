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
from msgspec import Struct, field
from .... import patterns

_SUFFIX = patterns.compile(r"\s*(?:(?:First|1st)\s+)?(?:DB/Inst:|for DB:|DB:\s+\S+\s+Instance:|DB/Inst/Snaps?:).*$")


class RawSection(Struct):
    title: str
    line: int  # 1-based line of the title
    lines: list[str] = field(default_factory=list)  # body lines after the title line
    first_body_line: int = 0  # 1-based number of lines[0]
    rest_of_title_line: str = ""  # text to the right of a summary-page title (column headers)


# First words of the section titles awrscope maps: a line starting at column 0
# with one of these and matching a registered title is a title even without
# the DB/Inst suffix (excerpts pasted into tickets and papers drop it).
_TITLE_WORDS = frozenset("""load top time foreground background wait instance host io iostat tablespace
file buffer checkpoint pga undo enqueue latch sql segments init.ora cache operating os memory key other
rollback""".split())


# A cheap first look (one C-level match) before the word-by-word checks. Longest first, then alphabetical: a
# set's order changes from run to run, and the pattern must be the same text every run (awrscope.patterns).
_TITLE_START = patterns.compile(r"(?:%s)(?:\s|$)" % "|".join(sorted(map(re.escape, _TITLE_WORDS),
                                                                       key=lambda w: (-len(w), w))),
                                re.IGNORECASE)


def _bare_title(line: str, nxt: str) -> str | None:
    """The title of a line that starts with a title word (the caller checked
    :data:`_TITLE_START`) and names a mapped section, printed without its suffix."""
    if len(line) > 90:
        return None
    first = line.split(None, 1)[0].lower()
    if first not in _TITLE_WORDS:
        return None
    title = line.strip()
    if ":" in title or any(map(str.isdigit, title.replace("Top 5", "").replace("Top 10", "")
                               .replace("64 msec to 2 sec", "").replace("4 sec to 2 min", "")
                               .replace("4 min to 1 hr", "").replace("100%", ""))):
        return None
    nxt = nxt.strip()
    if nxt and not nxt.startswith("->") and not nxt.startswith("~"):
        # a title is followed by a blank line, notes or its underline, and
        # in pasted excerpts directly by a column header: accept text, not figures
        if sum(map(str.isdigit, nxt)) > 3:
            return None
    from ..sections import lookup  # the registry of mapped titles

    return title if lookup(title) is not None else None


def split_sections(lines: list[str]) -> tuple[list[str], list[RawSection]]:
    """Return (preamble lines before the first title, sections)."""
    sections: list[RawSection] = []
    preamble: list[str] = []
    current: list[str] = preamble
    title_start = _TITLE_START.match
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        title = None
        rest = ""
        if line and not line.isspace():
            nxt = lines[i + 1] if i + 1 < n else ""
            stripped_next = nxt.lstrip() if "~~~" in nxt else ""
            if stripped_next.startswith("~~~") and not line.lstrip().startswith("~"):
                indent = len(nxt) - len(stripped_next)
                run = len(stripped_next) - len(stripped_next.lstrip("~"))
                cut = indent + run
                title = line[:cut].strip()
                rest = " " * cut + line[cut:] if line[cut:].strip() else ""
                if not title:  # title longer than its underline is impossible; keep whole line
                    title = line.strip()
            elif ("DB/Inst:" in line or "for DB:" in line or ("Snaps:" in line and "DB:" in line)) and not line.startswith("->"):
                title = _SUFFIX.sub("", line).strip()
            elif title_start(line):
                title = _bare_title(line, nxt)
        if title:
            sec = RawSection(title=title, line=i + 1, rest_of_title_line=rest)
            sections.append(sec)
            current = sec.lines
            sec.first_body_line = i + 2
        else:
            current.append(line)
        i += 1
    return preamble, sections


def normalise_title(title: str) -> str:
    return " ".join(title.lower().split())
