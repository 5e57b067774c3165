"""HTML ASH reports to header tables and titled tables of rows.

ASH HTML is written by the same package as AWR HTML (``<h3>`` titles, ``<th>`` header rows,
one ``<tr>`` per row), so the AWR HTML scanner (``report.html.blocks_from_html``) cuts it.
Its header tables (DB Name, CPUs, Analysis Begin Time ...) follow the ``<h1>ASH Report For``
heading, so they arrive as a block of that title rather than as the AWR header block."""
from __future__ import annotations

from msgspec import Struct

from ...model import ParseIssue
from ..report.html import blocks_from_html
from ..report.raw import HTML_HEADER_TITLE
from .records import squash


class HtmlSection(Struct):
    title: str
    line: int
    rows: list[tuple[int, dict[str, str]]]  # (line, squashed column name -> cell)
    notes: list[str]


def read_html(text: str) -> tuple[list, list[tuple[str, str, int]], tuple[int, str] | None, list[HtmlSection],
                                  list[ParseIssue]]:
    """(header tables as (columns, first row cells, line), header label/value pairs as
    (label, value, line), the ``ASH Report For`` title as (line, text), sections, issues of
    the HTML scan)."""
    _lines, _first, blocks, issues = blocks_from_html(text)
    tables: list[tuple[list[str], list[str], int]] = []
    pairs: list[tuple[str, str, int]] = []
    sections: list[HtmlSection] = []
    title = None
    for block in blocks:
        is_header = block.title == HTML_HEADER_TITLE or block.title.lower().startswith("ash report")
        if is_header:
            if block.title != HTML_HEADER_TITLE and title is None:
                title = (block.line, block.title)
            for t in block.tables:
                _header_table(t, tables, pairs)
            continue
        rows: list[tuple[int, dict[str, str]]] = []
        for t in block.tables[:1]:  # one table per ASH section; a second one is another layout
            names = [squash(c) for c in t.columns]
            for line, cells in t.rows:
                rows.append((line, {n: c for n, c in zip(names, cells) if n}))
        sections.append(HtmlSection(block.title, block.line, rows, list(block.notes)))
    return tables, pairs, title, sections, issues


def _header_table(t, tables: list, pairs: list) -> None:
    """A header table is either column-wise (DB Name | DB Id | ...) or label-wise
    (``Analysis Begin Time:`` | time | data source)."""
    rows = t.rows
    label_wise = bool(t.columns) and not t.columns[0].strip()  # an empty first <th> over the labels
    if rows and (label_wise or all(cells and cells[0].rstrip().endswith(":") for _, cells in rows)):
        for line, cells in rows:
            pairs.append((cells[0].strip().rstrip(":").strip(), cells[1].strip() if len(cells) > 1 else "", line))
        return
    if rows:
        line, cells = rows[0]
        tables.append((list(t.columns), cells, line))
