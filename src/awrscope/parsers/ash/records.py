"""The format-neutral shape of an ASH report section: records of named cells.

An ASH section prints one logical record over several physical rows: a text report stacks
two header levels (``SQL ID ... % Activity`` over ``Event % Event ...``), prints the SQL
text under the figures and the record's further events after a blank line; an HTML report
prints one row per event and repeats the record's key cells in hidden ``<div>``\\s. Both
front ends (``text``, ``html``) fold this into :class:`Record`\\s, so one mapper per
section (``sections``) serves both formats.
"""
from __future__ import annotations

import re
from msgspec import Struct, field
from typing import Callable
from ... import patterns

#: Given a row's cells (squashed column name -> cell text), the key of the record the row
#: starts, or None when the row continues the current record (or is not a record at all).
Starts = Callable[[dict[str, str]], "tuple | None"]


def squash(header: str) -> str:
    """A column name as looked up: lower case, no white space (``% Activity`` -> ``%activity``)."""
    return "".join(header.lower().split())


class Record(Struct):
    line: int  # 1-based source line of the record's first row
    cells: dict[str, str]  # squashed column name -> cell text, all header levels merged
    text: list[str] = field(default_factory=list)  # free text printed under the figures (SQL text)
    more: list[tuple[int, dict[str, str]]] = field(default_factory=list)  # the record's further rows

    def get(self, pattern: str) -> str:
        """The stripped text of the first cell whose column name matches ``pattern`` ('' if none)."""
        return cell(self.cells, pattern)


class Table(Struct):
    """One section as records. ``widths``: the printed width of each column in a text report
    (a name as wide as its column may have been cut); empty for HTML, which prints names whole."""

    title: str
    line: int
    records: list[Record]
    widths: dict[str, int] = field(default_factory=dict)
    format: str = "text"
    notes: list[str] = field(default_factory=list)

    def width(self, pattern: str) -> int | None:
        rx = _compiled(pattern)
        return next((w for name, w in self.widths.items() if rx.search(name)), None)


def cell(cells: dict[str, str], pattern: str) -> str:
    rx = _compiled(pattern)
    for name, text in cells.items():
        if rx.search(name):
            return text.strip()
    return ""


def has_column(cells: dict[str, str], pattern: str) -> bool:
    rx = _compiled(pattern)
    return any(rx.search(name) for name in cells)


_RX: dict[str, re.Pattern] = {}


def _compiled(pattern: str) -> re.Pattern:
    rx = _RX.get(pattern)
    if rx is None:
        rx = _RX[pattern] = patterns.compile(pattern)
    return rx


def group_rows(rows: list[tuple[int, dict[str, str]]], starts: Starts) -> list[Record]:
    """Rows that each carry every column (HTML) to records: a row whose key differs from the
    current record's starts a new one; a row with the same key (the hidden repeat of an HTML
    continuation row) or with no key is one more row of the current record."""
    out: list[Record] = []
    current: Record | None = None
    current_key = None
    for line, cells in rows:
        key = starts(cells)
        if key is not None and key != current_key:
            current = Record(line, dict(cells))
            current_key = key
            out.append(current)
        elif current is not None:
            current.more.append((line, cells))
    return out
