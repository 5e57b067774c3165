"""Read the tables of a text section from their dashed column underlines (spec A.2.4).

Each run of dashes under a header is one column. Header text may be stacked on
up to four lines above the dashes. A data line is cut into whitespace tokens
and each token goes to the column it overlaps most: right-aligned numbers that
overflow one character to the left, unit cells such as ``52.86 s`` and
two-word classes such as ``User I/O`` all land in the right column.
"""
from __future__ import annotations

import re

from msgspec import Struct

from ..raw import RawTable
from .cut import _assign, _compiled, assign, owners  # noqa: F401  (the cutter, re-exported for its readers)

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
