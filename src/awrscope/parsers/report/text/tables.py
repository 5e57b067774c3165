"""Read the tables of a text section from their dashed column underlines (spec A.2.4).

Each run of dashes under a header is one column. Header text may be stacked on
up to four lines above the dashes. A data line is cut into whitespace tokens
and each token goes to the column it overlaps most: right-aligned numbers that
overflow one character to the left, unit cells such as ``52.86 s`` and
two-word classes such as ``User I/O`` all land in the right column.
"""
from __future__ import annotations

import os
import re

from msgspec import Struct

from ..raw import RawTable
from .... import patterns

_TOKEN = patterns.compile(r"\S+")

# The compiled cutter when it was built and not turned off (AWRSCOPE_PURE_PYTHON=1; tests/test_compiled_core.py).
try:
    if os.environ.get("AWRSCOPE_PURE_PYTHON", "") == "1":
        raise ImportError
    from . import _assign as _compiled
except ImportError:
    _compiled = None


def dash_runs(line: str) -> list[tuple[int, int]] | None:
    """Spans of dash runs if the line is made of dashes and spaces only."""
    s = line.rstrip()
    if not s or "-" not in s:
        return None
    stripped = s.replace("-", "").replace(" ", "")
    if stripped:
        return None
    return [(m.start(), m.end()) for m in re.finditer(r"-+", s)]


def is_terminator(runs: list[tuple[int, int]]) -> bool:
    """The centred section footer: one long indented run of dashes."""
    return len(runs) == 1 and runs[0][0] >= 5 and runs[0][1] - runs[0][0] >= 40


def assign(line: str, spans: list[tuple[int, int]], owner: list[int] | None = None) -> list[str]:
    """Cut one line into cells by column spans.

    ``owner`` (from :func:`owners`) maps a character position to the column
    whose span holds it; a token whose first and last characters fall in the
    same column is settled without measuring overlaps (the common case).
    The compiled twin (_assign.c) cuts one-byte lines; :func:`_assign` is the
    reference it mirrors and cuts the others."""
    if owner is None:
        owner = owners(spans)
    if _compiled is not None:
        cells = _compiled.assign(line, spans, owner)
        if cells is not NotImplemented:
            return cells
    return _assign(line, spans, owner)


def _assign(line: str, spans: list[tuple[int, int]], owner: list[int]) -> list[str]:
    width = len(owner)
    if spans:
        # Fast path: when no token crosses a column border (nor lies left of the
        # first column or right of the last), each column's slice holds exactly
        # its tokens. Most data lines; the per-token walk below is the fallback.
        n = len(line)
        start = spans[0][0]
        if (start == 0 or not line[:start].strip()) and (n <= width or not line[width:].strip()):
            out: list[str] = []
            prev = start
            for _, e in spans:
                if 0 < e < n and not line[e - 1].isspace() and not line[e].isspace():
                    break
                cell = line[prev:e].strip()
                # " ".join(cell.split()) without a list per cell: the same text when no run of spaces and
                # no other white space (tabs, NBSP: not printable) is left inside
                out.append(cell if "  " not in cell and cell.isprintable() else " ".join(cell.split()))
                prev = e
            else:
                return out
    cells: list[list[str]] = [[] for _ in spans]
    for m in _TOKEN.finditer(line):
        a, b = m.start(), m.end()
        ka = owner[a] if a < width else -1
        if ka >= 0 and b - 1 < width and owner[b - 1] == ka:
            cells[ka].append(m.group())
            continue
        cells[_best_column(a, b, spans)].append(m.group())
    return [" ".join(c) if len(c) != 1 else c[0] for c in cells]


def owners(spans: list[tuple[int, int]]) -> list[int]:
    """Column index per character position. A gap before a column belongs to
    that column: right-aligned numbers overflow one character to the left."""
    width = spans[-1][1] if spans else 0
    owner = [-1] * width
    prev_end = 0
    for k, (s, e) in enumerate(spans):
        for pos in range(prev_end if k else s, e):
            owner[pos] = k
        prev_end = e
    return owner


def _best_column(a: int, b: int, spans: list[tuple[int, int]]) -> int:
    best, best_overlap = -1, 0
    for k, (s, e) in enumerate(spans):
        if s >= b:
            break
        ov = min(b, e) - max(a, s)
        if ov > best_overlap:
            best, best_overlap = k, ov
    if best < 0:  # token in a gap between columns, or past the last: nearest column
        best = min(range(len(spans)), key=lambda k: min(abs(spans[k][0] - b), abs(spans[k][1] - a)))
    return best


def header_names(header_lines: list[str], spans: list[tuple[int, int]]) -> list[str]:
    cols: list[list[str]] = [[] for _ in spans]
    for h in header_lines:
        for k, text in enumerate(assign(h, spans)):
            # dashes around a group label ('---------- Read ---------', Statspack
            # IO Stat) decorate the group, they are not part of the column name
            text = " ".join(t for t in text.split() if t.strip("-"))
            if text:
                cols[k].append(text)
    return [" ".join(c) for c in cols]


class TextBlock(Struct):
    """What a section body holds: its ``->`` notes, tables, and all its lines."""

    notes: list[str]
    tables: list[RawTable]
    lines: list[str]
    first_line: int


def read_block(lines: list[str], first_line: int) -> TextBlock:
    notes: list[str] = []
    tables: list[RawTable] = []
    table: RawTable | None = None
    pending: list[str] = []  # non-blank lines since the last blank line
    pending_rows = 0  # how many of the current table's last rows are in `pending`
    in_note = False
    n = len(lines)
    for j in range(n):
        line = lines[j]
        if not line.strip():
            pending = []
            pending_rows = 0
            in_note = False
            continue
        lstrip = line.lstrip()
        if lstrip.startswith("->"):
            notes.append(lstrip[2:].strip())
            in_note = True
            table = None
            pending = []
            pending_rows = 0
            continue
        if in_note and line.startswith("   ") and table is None:
            notes[-1] = notes[-1] + " " + lstrip.strip()
            continue
        in_note = False
        runs = dash_runs(line) if "-" in line else None
        if runs is not None:
            if is_terminator(runs):
                table = None
                pending = []
                pending_rows = 0
                continue
            if _is_group_underline(lines, j):
                pending.append(line)
                continue
            if table is not None and pending_rows:
                # lines taken as rows since the last blank line were this header
                del table.raw_rows[-pending_rows:]
            if runs[0][0] >= 3:  # labels left of the first underline ('Redo size:', 'Begin Snap:')
                runs = [(0, runs[0][0] - 1)] + runs
            header = [h for h in pending[-4:] if dash_runs(h) is None]
            names = header_names(header, runs)
            if table is not None and names == table.columns:
                pass  # page break: the header repeats, rows continue
            elif tables and names == tables[-1].columns and table is None:
                table = tables[-1]
            else:
                table = RawTable(names, runs, first_line + j)
                tables.append(table)
            pending = []
            pending_rows = 0
            continue
        pending.append(line)
        if table is not None:
            table.raw_rows.append((first_line + j, line))
            pending_rows += 1
    return TextBlock(notes, tables, lines, first_line)


def _is_group_underline(lines: list[str], j: int) -> bool:
    """A dash line spanning a group of columns (``% of Total Waits`` then
    ``-----``) is followed by more header lines and then the real underline."""
    for k in range(j + 1, min(j + 5, len(lines))):
        nxt = lines[k]
        if not nxt.strip():
            return False
        runs = dash_runs(nxt)
        if runs is not None:
            return not is_terminator(runs)
        if nxt.lstrip().startswith("->"):
            return False
        # data lines carry numbers in most columns; header lines are words
        if sum(map(str.isdigit, nxt)) > len(nxt.strip()) // 3:
            return False
    return False
