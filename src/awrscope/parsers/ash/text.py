"""Text ASH reports (``ashrpt.sql`` text) to titled sections and :class:`Record`\\s.

Every section title of a text ASH report (10.2 to 19c) carries the ``DB/Inst:`` suffix, at
times glued to a title cut at its column (``Top SQL with Top Row SourcesDB/Inst:``), so the
report is cut at those lines; what comes before the first title is the header.

A section's table may stack several header levels, each underlined with dashes
(``SQL ID ... % Activity`` / ``-----`` / ``Event % Event ...`` / ``-----``): the first
physical line of a record is read with the first level's columns, the lines right after it
with the next levels', the text after them (SQL text) up to a blank line is the record's
free text, and the rows after that belong to the record too (the slot's further events in
*Activity Over Time*). The AWR reader (``report.text.tables.read_block``) takes a first
underline followed by more header text for a group underline, so it is not used here.
"""
from __future__ import annotations

from msgspec import Struct, field

from ..report.text.tables import assign, dash_runs, header_names, is_terminator, owners
from .records import Record, Starts, squash

_SUFFIX = "DB/Inst:"
_HEADER_LOOKAHEAD = 4  # header text stands at most this many lines above its underline


class TextSection(Struct):
    title: str
    line: int  # 1-based line of the title
    body: list[tuple[int, str]] = field(default_factory=list)  # (line, text) after the title, blank lines kept


class Level(Struct):
    """One header level: its column names (squashed) and their character spans."""

    names: list[str]
    spans: list[tuple[int, int]]
    owner: list[int]

    def cut(self, line: str) -> dict[str, str]:
        cells = assign(line, self.spans, self.owner)
        return {name: c for name, c in zip(self.names, cells) if name}


def normalise(text: str) -> list[str]:
    """Lines without CR and form feeds; line numbers stay those of the file."""
    if "\f" in text:
        text = text.replace("\f", "")
    return text.splitlines()


def split_sections(lines: list[str]) -> tuple[list[tuple[int, str]], list[TextSection]]:
    """(header lines before the first title, sections), each line with its 1-based number."""
    header: list[tuple[int, str]] = []
    sections: list[TextSection] = []
    for i, line in enumerate(lines, start=1):
        k = line.find(_SUFFIX)
        title = line[:k].strip() if k > 0 and not line.lstrip().startswith("->") else ""
        if title:
            sections.append(TextSection(title, i))
        elif sections:
            sections[-1].body.append((i, line))
        else:
            header.append((i, line))
    return header, sections


def read_levels(body: list[tuple[int, str]]) -> tuple[list[Level], list[tuple[int, str]]]:
    """(header levels, data lines) of a section body. Data lines keep their numbers, so a
    gap between two numbers is a blank line (records end at blank lines)."""
    levels: list[Level] = []
    rows: list[tuple[int, str]] = []
    n = len(body)
    in_data = False
    for j, (ln, raw) in enumerate(body):
        if not raw.strip() or raw.lstrip().startswith("->"):
            continue
        runs = dash_runs(raw) if "-" in raw else None
        if runs is not None and is_terminator(runs):
            if levels:
                break
            continue
        if runs is not None:
            names = [squash(c) for c in header_names(_header_text(body, j), runs)]
            if in_data:
                if any(names == lv.names for lv in levels):
                    continue  # a page break repeats the header: the rows go on
                break  # another table: not read
            levels.append(Level(names, runs, owners(runs)))
            continue
        if not levels or _is_header_text(body, j, n):
            continue  # notes' wrapped lines before the table, or header text over an underline
        in_data = True
        rows.append((ln, raw))
    return levels, rows


def _header_text(body: list[tuple[int, str]], j: int) -> list[str]:
    """The header lines right above the underline at ``j`` (up to a blank or a dash line)."""
    out: list[str] = []
    k = j - 1
    while k >= 0 and len(out) < _HEADER_LOOKAHEAD:
        raw = body[k][1]
        if not raw.strip() or dash_runs(raw) is not None or raw.lstrip().startswith("->"):
            break
        out.insert(0, raw)
        k -= 1
    return out


def _is_header_text(body: list[tuple[int, str]], j: int, n: int) -> bool:
    """A line directly above (within a few lines, no blank between) a column underline."""
    for k in range(j + 1, min(j + 1 + _HEADER_LOOKAHEAD, n)):
        raw = body[k][1]
        if not raw.strip():
            return False
        runs = dash_runs(raw) if "-" in raw else None
        if runs is not None:
            return not is_terminator(runs)
    return False


def records_from_text(levels: list[Level], rows: list[tuple[int, str]], starts: Starts,
                      free_text: bool) -> list[Record]:
    """Group a section's data lines into records.

    A line whose first-level cells ``starts`` a record opens it; the lines right after it take
    the next header levels; then, where the section prints free text (``free_text``), the
    lines up to the first blank line are the record's text. Later lines of the record are its
    further rows when the table has one level; with several levels, those after a blank line are
    further events printed in the last level's layout (Top SQL with Top Events: a statement's second
    event), kept in that layout."""
    out: list[Record] = []
    if not levels:
        return out
    current: Record | None = None
    depth = 0  # header levels read for the current record
    in_text = False
    after_gap = False  # a blank line since the record's figures: further events follow
    prev = None
    for ln, raw in rows:
        gap = prev is not None and ln > prev + 1
        prev = ln
        cells = levels[0].cut(raw)
        if starts(cells) is not None:
            current = Record(ln, cells)
            out.append(current)
            depth, in_text, after_gap = 1, free_text and len(levels) == 1, False
            continue
        if current is None:
            continue
        if gap:
            depth, in_text, after_gap = len(levels), False, True
        if depth < len(levels):
            for name, c in levels[depth].cut(raw).items():
                current.cells.setdefault(name, c)
            depth += 1
            in_text = free_text and depth == len(levels)
        elif in_text:
            current.text.append(raw.rstrip())
        elif len(levels) == 1:
            current.more.append((ln, cells))
        elif after_gap:
            current.more.append((ln, levels[-1].cut(raw)))
    return out


def widths(levels: list[Level]) -> dict[str, int]:
    """The printed width of every column: a name that fills it may have been cut."""
    out: dict[str, int] = {}
    for lv in levels:
        for name, (a, b) in zip(lv.names, lv.spans):
            if name:
                out.setdefault(name, b - a)
    return out


def header_tables(header: list[tuple[int, str]]) -> list[tuple[list[str], list[str], int]]:
    """The small tables of a text ASH header (DB Name / DB Id ..., CPUs / SGA Size ...):
    (column names, the first data row's cells, its line) for each underline."""
    out = []
    for j, (ln, raw) in enumerate(header):
        runs = dash_runs(raw) if "-" in raw else None
        if runs is None or is_terminator(runs) or j == 0:
            continue
        above = header[j - 1][1]
        data = next(((l2, r2) for l2, r2 in header[j + 1:j + 3] if r2.strip()), None)
        if not above.strip() or data is None or dash_runs(data[1]) is not None:
            continue
        names = header_names([above], runs)
        out.append((names, assign(data[1], runs), data[0]))
    return out
