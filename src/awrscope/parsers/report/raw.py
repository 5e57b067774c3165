"""The format-neutral raw section that the text and HTML front ends both produce.

A section mapper (``parse.sections``) turns a :class:`Block` into a typed
:class:`~awrscope.model.Section`, whatever format the report came in.
"""
from __future__ import annotations

from typing import Callable

from msgspec import Struct, field



class RawTable:
    """One table: column names (stacked header text joined), their character
    spans (text reports), and rows as (1-based source line, cells).

    Text tables keep their lines uncut in ``raw_rows`` and cut them into
    cells only when ``rows`` is first read, so tables no mapper reads, and
    free-text lines such as SQL text, cost nothing."""

    __slots__ = ("columns", "spans", "header_line", "raw_rows", "_rows", "_owner")

    def __init__(self, columns: list[str], spans: list[tuple[int, int]], header_line: int,
                 rows: list[tuple[int, list[str]]] | None = None,
                 raw_rows: list[tuple[int, str]] | None = None):
        self.columns = columns
        self.spans = spans
        self.header_line = header_line
        self.raw_rows = raw_rows if raw_rows is not None else []
        self._rows = rows
        self._owner = None

    @property
    def rows(self) -> list[tuple[int, list[str]]]:
        if self._rows is None:
            cut = self.cut_with()
            self._rows = [(line, cut(text)) for line, text in self.raw_rows]
        return self._rows

    @rows.setter
    def rows(self, value: list[tuple[int, list[str]]]) -> None:
        self._rows = value

    def cut(self, text: str) -> list[str]:
        """Cells of one text line by this table's column spans."""
        return self.cut_with()(text)

    def cut_with(self) -> Callable[[str], list[str]]:
        """:meth:`cut` as a function of the line alone, for cutting many lines (the text reader is
        imported once per table, not once per line; HTML tables never call this)."""
        from .text.cut import assign, owners

        if self._owner is None:
            self._owner = owners(self.spans)
        spans, owner = self.spans, self._owner
        return lambda text: assign(text, spans, owner)

    def __repr__(self) -> str:
        return f"RawTable(columns={self.columns!r}, rows={len(self.raw_rows) or len(self._rows or [])})"


#: Title of the pseudo-block in which the HTML front end hands over the tables
#: printed before the first section (DB, host, snapshot): the report header.
HTML_HEADER_TITLE = "\x00report header"


class Block(Struct):
    title: str
    line: int  # 1-based line of the title in the source
    notes: list[str] = field(default_factory=list)
    tables: list[RawTable] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # text body (text reports only)
    first_line: int = 0  # 1-based line number of lines[0]
    format: str = "text"
    copies: int = 0  # identical copies of this block printed right after it, not read (text reports)


__all__ = ["Block", "RawTable", "HTML_HEADER_TITLE"]
