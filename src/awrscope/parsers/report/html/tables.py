"""Cutting a delimited table into rows and cells, lazily: a :class:`_LazyTable` holds
offsets into the text and is cut when a section mapper first asks for its rows or columns."""
from __future__ import annotations

import os
import re
from bisect import bisect_right
from itertools import islice

from ..text.tables import RawTable
from .cells import _ATTRS, _ATTRS_NC, _COLSPAN, MAX_CELL_CHARS, _decoded, clean_cell
from .... import patterns


def _column_names(header_rows: list[list[tuple[str, int]]]) -> list[str]:
    """Header rows, colspans expanded, stacked into one name per column
    (``Reads:`` over ``Data`` gives ``Reads: Data``, as the text reader does)."""
    if not header_rows:
        return []
    grids: list[list[str]] = []
    for cells in header_rows:
        flat: list[str] = []
        for text, span in cells:
            flat.extend([text] * span)
        grids.append(flat[:MAX_ROW_CELLS])
    width = max(len(g) for g in grids)
    if len(grids) == 1:
        return grids[0]
    # Only the last header row has one cell per data column; upper rows span groups.
    names = []
    for k in range(width):
        parts = [g[k] for g in grids if k < len(g) and g[k]]
        names.append(" ".join(parts))
    return names

_COLUMNS_SLOT = RawTable.__dict__["columns"]

COLUMNS_ALONE = 1 << 16

_RAW_ROWS_SLOT = RawTable.__dict__["raw_rows"]

_ROWS_SLOT = RawTable.__dict__["_rows"]

class _LazyTable(RawTable):
    """A table still as offsets into the report text: columns, rows and raw
    rows are cut on first access (:func:`_cut_table`)."""

    __slots__ = ("_text", "_segments", "cut_notes")

    def __init__(self, text: str, segments: list[tuple[int, int, int]], line: int):
        self._text = text
        self._segments = segments
        self.spans = []
        self.header_line = line
        self._owner = None
        self.cut_notes: list[tuple[int, str]] = []  # (line, message) of each cut of the table (_Budget)

    def _load_columns(self) -> None:
        """Columns from the header rows alone (they precede every data row);
        a table without header rows takes its width from all its rows. A table
        under COLUMNS_ALONE characters is cut whole at once: nearly every table
        whose columns are looked at is read next (3,133 of 3,264 in the corpus),
        so cutting its header rows first is work done twice."""
        if sum(b - a for a, b, _ in self._segments) < COLUMNS_ALONE:
            self._load()
            return
        header_rows, _ = _cut_table(self._text, self._segments, self.header_line, [], header_only=True)
        if header_rows:
            _COLUMNS_SLOT.__set__(self, _column_names(header_rows))
        else:
            self._load()

    def _load(self) -> None:
        text, self._text = self._text, None
        header_rows, rows = _cut_table(text, self._segments, self.header_line, self.cut_notes)
        self._segments = None
        columns = _column_names(header_rows)
        if not columns and rows:
            columns = [""] * max(len(c) for _, c in rows)
        try:
            _COLUMNS_SLOT.__get__(self)
        except AttributeError:
            _COLUMNS_SLOT.__set__(self, columns)
        _ROWS_SLOT.__set__(self, rows)

    @property
    def columns(self) -> list[str]:
        try:
            return _COLUMNS_SLOT.__get__(self)
        except AttributeError:  # not read yet
            self._load_columns()
            return _COLUMNS_SLOT.__get__(self)

    @columns.setter
    def columns(self, value: list[str]) -> None:
        if self._text is not None:
            self._load()
        _COLUMNS_SLOT.__set__(self, value)

    @property
    def raw_rows(self) -> list[tuple[int, str]]:
        """Rows as text (cells joined by two spaces), made on first access: few mappers read them."""
        try:
            return _RAW_ROWS_SLOT.__get__(self)
        except AttributeError:
            raw_rows = [(ln, "  ".join(cells)) for ln, cells in self.rows]
            _RAW_ROWS_SLOT.__set__(self, raw_rows)
            return raw_rows

    @raw_rows.setter
    def raw_rows(self, value: list[tuple[int, str]]) -> None:
        if self._text is not None:
            self._load()
        _RAW_ROWS_SLOT.__set__(self, value)

    @property
    def rows(self) -> list[tuple[int, list[str]]]:
        if self._text is not None:
            self._load()
        return _ROWS_SLOT.__get__(self)

    @rows.setter
    def rows(self, value: list[tuple[int, list[str]]]) -> None:
        if self._text is not None:
            self._load()
        _ROWS_SLOT.__set__(self, value)

# Cleaned text of a cell by its raw text: AWR tables repeat values (0, 0.0,
# wait classes, units) and cleaning is pure.
_CLEAN_CACHE: dict[str, str] = {}

_CLEAN_CACHE_MAX = 50_000

def _clean_cached(raw: str) -> str:
    text = _CLEAN_CACHE.get(raw)
    if text is None:
        if len(_CLEAN_CACHE) > _CLEAN_CACHE_MAX:
            _CLEAN_CACHE.clear()
        if _NOTHING_TO_CLEAN.search(raw) is None and len(raw) <= MAX_CELL_CHARS:
            text = _CLEAN_CACHE[raw] = raw  # what clean_cell would return: one search instead of its steps
        else:
            text = _CLEAN_CACHE[raw] = clean_cell(_decoded(raw))
    return text

# What clean_cell changes in a cell: an entity, a no-break space, a line break or tab, two spaces, white space
# at either end (\s and str.strip() share Python's definition of white space).
_NOTHING_TO_CLEAN = patterns.compile(r"[&\xa0\n\t]|  |^\s|\s\Z")

# A tag that is not a row, cell or row group: the table needs _cut_marked_up.
_MARKUP = patterns.compile(r"<(?!/?(?:t[rdh]|tbody|thead|tfoot)[\s/>])", re.I)

_ROW_TAG = patterns.compile(r"<tr(?=[\s/>])", re.I)

_HEADER_ROWS_LOOKED_AT = 6  # AWR prints at most 3 header rows; the first data row ends the look

_CELL_TEXT = patterns.compile(r"<[tT][dhDH](?=[\s/>])" + _ATTRS_NC + r">([^<]*+)")

# The same, twice as fast, for tables without a quoted attribute value holding '>'.
_CELL_TEXT_PLAIN = patterns.compile(r"<[tT][dhDH](?=[\s/>])[^>]*+>([^<]*+)")

_QUOTED_GT = patterns.compile(r"""="[^"<>]*>|='[^'<>]*>""")

# Inline tags inside cells (SQL id links, <div>/<span> wrappers) on one line:
# dropping them leaves the cell text and the line numbers as they were.
_INLINE = patterns.compile(r"</?(?:a|span|div|font|b|i)(?=[\s/>])[^<>\n]*+>", re.I)

# What one table may cost: a row holds at most MAX_ROW_CELLS cells (AWR's widest prints 37), and a table
# at most ROWS_FREE rows plus one per ROW_CHARS characters of its text, CELLS_FREE cells plus one per
# CELL_CHARS. Each row becomes Python objects of ~300 bytes whatever its size, so a table of tiny rows
# ('<tr><td>1' a million times, or one line of millions of cells) would otherwise take 30x its text;
# AWR's rows are longer than 200 characters, so no real table comes near the bounds.
MAX_ROW_CELLS = 1000
ROWS_FREE, ROW_CHARS = 10_000, 128
CELLS_FREE, CELL_CHARS = 100_000, 2

# A row text this long may hold more than MAX_ROW_CELLS cells: its cells are found one by one, up to the bound.
_LONG_ROW = 4 * MAX_ROW_CELLS


class _Budget:
    """Rows and cells still allowed in one table; a cut is said once in ``notes`` as (line, message)."""

    __slots__ = ("rows", "cells", "notes", "total_rows", "said_wide")

    def __init__(self, chars: int, notes: list[tuple[int, str]]):
        self.rows = self.total_rows = ROWS_FREE + chars // ROW_CHARS
        self.cells = CELLS_FREE + chars // CELL_CHARS
        self.notes = notes
        self.said_wide = False

    def wide(self, line: int) -> None:
        if not self.said_wide:
            self.said_wide = True
            self.notes.append((line, f"a table row holds more than {MAX_ROW_CELLS:,} cells: the table was "
                                     f"truncated at {MAX_ROW_CELLS:,} cells a row"))

    def take(self, line: int, cells: int) -> bool:
        """Count one row of ``cells`` cells; False once the table is over its bound (the row is not kept)."""
        self.rows -= 1
        self.cells -= cells
        if self.rows >= 0 and self.cells >= 0:
            return True
        self.notes.append((line, f"a table holds more rows or cells than its {self.total_rows:,}-row bound for "
                                 "its size: the table was truncated here, the rest of it is not read"))
        return False


_CELL = patterns.compile(r"<[tT]([dhDH])(?=[\s/>])" + _ATTRS + r">([^<]*+)")

# Any tag with the text after it, for tables with markup inside cells.
_TAG_AND_TEXT = patterns.compile(r"<(?:(/\s*+)?([A-Za-z][A-Za-z0-9:_.-]*+)" + _ATTRS + r">|![^>]*+>|\?[^>]*+>|)([^<]*+)")

def _cut_table(text: str, segments: list[tuple[int, int, int]], line: int, notes: list[tuple[int, str]],
               header_only: bool = False) -> tuple[list[list[tuple[str, int]]], list[tuple[int, list[str]]]]:
    """(header rows, rows of cleaned cells) of a table: <th> rows before the
    first data row are header rows, colspans expanded into blank cells.
    ``header_only`` stops at the first data row."""
    if not segments:
        return [], []
    if header_only and len(segments) == 1:  # header rows come first: look at the first rows only
        a, b, a_line = segments[0]
        starts = _ROW_TAG.finditer(text, a, b)
        for _ in range(_HEADER_ROWS_LOOKED_AT):
            if next(starts, None) is None:
                break
        else:
            nxt = next(starts, None)
            if nxt is not None:
                header_rows, rows = _cut_table(text, [(a, nxt.start(), a_line)], line, [])
                if rows:  # the first data row was among them: the header rows are complete
                    return header_rows, rows
    parts, bases, off = [], [], 0
    for a, b, a_line in segments:
        bases.append((off, a_line))
        parts.append(text[a:b])
        off += b - a
    own = parts[0] if len(parts) == 1 else "".join(parts)
    with_spans = "olspan" in own or "olSpan" in own or "OLSPAN" in own
    if len(bases) == 1:
        plain = own
        if _MARKUP.search(own) is not None:
            plain = _strip_inline(own)
            if _MARKUP.search(plain) is not None:
                plain = None
        if plain is not None:
            cut = cut_rows(plain, bases[0][1], with_spans, header_only, _Budget(len(own), notes))
            if cut is not None:
                return cut
            del notes[:]  # the marked-up way reads the table again
    return _cut_marked_up(own, _JoinedLines(own, bases), with_spans, header_only, _Budget(len(own), notes))

_STRIP_PIECE = 1 << 18


def _strip_inline(own: str) -> str:
    """``_INLINE.sub("", own)`` a piece at a time: re.sub holds a list of every kept piece (60 bytes each, so
    11x the text for a line of a million <b> tags). Pieces are cut before a '<', which no match holds inside."""
    if len(own) <= _STRIP_PIECE:
        return _INLINE.sub("", own)
    out, a = [], 0
    while a < len(own):
        b = own.find("<", a + _STRIP_PIECE)
        b = len(own) if b < 0 else b
        out.append(_INLINE.sub("", own[a:b]))
        a = b
    return "".join(out)


class _JoinedLines:
    """Lines of positions in a table's own text (its segments joined)."""

    __slots__ = ("own", "offsets", "bases", "pos", "line", "k")

    def __init__(self, own: str, bases: list[tuple[int, int]]):
        self.own = own
        self.offsets = [o for o, _ in bases]
        self.bases = bases
        self.pos, self.line, self.k = 0, bases[0][1], 0

    def at(self, pos: int) -> int:
        k = bisect_right(self.offsets, pos) - 1 if len(self.offsets) > 1 else 0
        if k != self.k or pos < self.pos:
            self.k = k
            self.pos, self.line = self.bases[k]
        self.line += self.own.count("\n", self.pos, pos)
        self.pos = pos
        return self.line

def _colspan(attrs: str) -> int:
    m = _COLSPAN.search(attrs)
    if m is None or not m.group(1):
        return 1
    digits = m.group(1).lstrip("0")
    if len(digits) > 2:  # past 64 whatever it says (int() refuses more than 4,300 digits)
        return 64
    return max(1, min(int(digits or "0"), 64))

def _row_texts(own: str):
    """(text before the first <tr>, then the text after each <tr> up to the next one), one at a time:
    a table of millions of rows is never held as a list of its row texts."""
    prev = 0
    for m in _ROW_TAG.finditer(own):
        yield own[prev:m.start()]
        prev = m.end()
    yield own[prev:]


def _cut_rows(own: str, line: int, with_spans: bool, header_only: bool, budget: _Budget):
    """Rows of a table whose tags are all <tr>/<td>/<th> (and row groups), or
    None when a cell comes before the first <tr>. The text is cut at
    each <tr>, a row's cell texts are one findall, and cleaned through the
    cache in one map. Rows that may be header rows (before the first data
    row), and rows with colspans or <td/>, take the per-cell way."""
    rows: list[tuple[int, list[str]]] = []
    header_rows: list[list[tuple[str, int]]] = []
    chunks = _row_texts(own)
    head = next(chunks)
    if _CELL.search(head):  # a cell before any <tr>: an implied row
        return None
    line += head.count("\n")
    get, clean = _CLEAN_CACHE.get, _clean_cached
    cell_re = _CELL_TEXT if _QUOTED_GT.search(own) else _CELL_TEXT_PLAIN
    plain = cell_re is _CELL_TEXT_PLAIN
    cell_texts = cell_re.findall
    for chunk in chunks:
        row_line = line + chunk.count("\n", 0, chunk.find(">"))  # the '>' of <tr ...>, as libxml2 counts
        line += chunk.count("\n")
        long_row = len(chunk) > _LONG_ROW
        if rows and not (with_spans and ("pan" in chunk or "PAN" in chunk)) and "/>" not in chunk:
            if plain:  # no cell starts after the text that follows the last '>': a '<td' there would scan to the
                last = chunk.rfind(">")  # end of the row in vain, each of them (quadratic on a hostile row)
                stop = chunk.find("<", last + 1) if last >= 0 else 0
                if stop >= 0:
                    chunk = chunk[:stop]
            if long_row:
                raws = [m.group(1) for m in islice(cell_re.finditer(chunk), MAX_ROW_CELLS + 1)]
                if len(raws) > MAX_ROW_CELLS:
                    del raws[MAX_ROW_CELLS:]
                    budget.wide(row_line)
            else:
                raws = cell_texts(chunk)
            if raws:
                if not budget.take(row_line, len(raws)):
                    break
                cells = list(map(get, raws))
                if None in cells:
                    cells = [clean(raw) if c is None else c for c, raw in zip(cells, raws)]
                rows.append((row_line, cells))
            continue
        texts, spans, has_th, row_is_header = [], None, False, True
        found = (m.groups() for m in _CELL.finditer(chunk)) if long_row else _CELL.findall(chunk)
        for kind, attrs, raw in found:
            if len(texts) == MAX_ROW_CELLS:
                budget.wide(row_line)
                break
            text = "" if attrs.endswith("/") else get(raw)  # <td/>: an empty cell
            if text is None:
                text = clean(raw)
            if with_spans:
                span = _colspan(attrs) if ("pan" in attrs or "PAN" in attrs) else 1
                if span != 1 and spans is None:
                    spans = [1] * len(texts)
                if spans is not None:
                    spans.append(span)
            if kind == "h" or kind == "H":
                has_th = True
            elif text:
                row_is_header = False
            texts.append(text)
        if texts:
            if not _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows, budget):
                break
            if header_only and rows:
                break
    return header_rows, rows

def _compiled_cut_rows(own: str, line: int, with_spans: bool, header_only: bool, budget: _Budget):
    """:func:`_cut_rows` by the compiled module (_cut.c): the same arguments, the same result. It reads
    one-byte (Latin-1) texts; a table with a character past Latin-1 is cut by the Python function."""
    cut = _cut.cut_rows(own, line, with_spans, header_only, -1, budget, _CLEAN_CACHE, _clean_cached, _colspan,
                        _CLEAN_CACHE_MAX, MAX_CELL_CHARS)
    return _cut_rows(own, line, with_spans, header_only, budget) if cut is NotImplemented else cut


# The compiled cutter when it was built and not turned off (AWRSCOPE_PURE_PYTHON=1: what a machine without a
# C compiler runs; tests/test_compiled_core.py compares the two).
try:
    if os.environ.get("AWRSCOPE_PURE_PYTHON", "") == "1":
        raise ImportError
    from . import _cut
except ImportError:
    cut_rows = _cut_rows
else:
    cut_rows = _compiled_cut_rows


def _cut_marked_up(own: str, lines: _JoinedLines, with_spans: bool, header_only: bool, budget: _Budget):
    """Rows of a table with other tags inside (links, <b>, <br>, <tbody>):
    every tag is looked at; a cell's text is all the text inside it, <br> a
    line break; a <td> before any <tr> opens a row."""
    rows: list[tuple[int, list[str]]] = []
    header_rows: list[list[tuple[str, int]]] = []
    texts: list[str] | None = None
    spans: list[int] | None = None
    has_th = False
    row_is_header = True
    row_line = 0
    cell: list[str] | None = None
    cell_is_th = False
    cell_span = 1

    def close_cell() -> None:
        nonlocal cell, row_is_header, spans
        text = _clean_cached(cell[0]) if len(cell) == 1 else clean_cell(_decoded("".join(cell)))
        if not cell_is_th and text:
            row_is_header = False
        if with_spans:
            if cell_span != 1 and spans is None:
                spans = [1] * len(texts)
            if spans is not None:
                spans.append(cell_span)
        texts.append(text)
        cell = None
        if len(texts) == MAX_ROW_CELLS:
            budget.wide(row_line)

    for m in _TAG_AND_TEXT.finditer(own):
        close, name, attrs, tail = m.groups()
        if texts is not None and len(texts) >= MAX_ROW_CELLS:  # the rest of a too wide row is skipped
            if name is None or name.lower() != "tr":
                continue
        if name is None:
            if cell is not None and m.group(0).startswith("<") and not m.group(0).startswith(("<!", "<?")):
                cell.append("<" + tail)  # a bare '<' is text
            elif cell is not None:
                cell.append(tail)
            continue
        tag = name.lower()
        if tag == "tr" or tag == "td" or tag == "th":
            if cell is not None:
                close_cell()
            if tag == "tr" or (texts is None and not close):
                if texts:
                    if not _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows, budget):
                        return header_rows, rows
                    if header_only and rows:
                        return header_rows, rows
                if tag == "tr" and close:
                    texts = None
                    continue
                texts, spans, has_th, row_is_header = [], None, False, True
                row_line = lines.at(m.start(4) - 1)  # the '>' of the start tag, as libxml2 counts
                if tag == "tr":
                    continue
            if close:
                continue
            if tag == "th":
                has_th = True
            cell_is_th = tag == "th"
            cell_span = _colspan(attrs) if with_spans and "colspan" in attrs.lower() else 1
            cell = [tail]
            if attrs.endswith("/"):
                cell = [""]
                close_cell()
        elif cell is not None:
            cell.append("\n" + tail if tag == "br" and not close else tail)
    if cell is not None:
        close_cell()
    if texts:
        _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows, budget)
    return header_rows, rows

def _close_row(texts: list[str], spans: list[int] | None, header: bool, line: int,
               rows: list[tuple[int, list[str]]], header_rows: list[list[tuple[str, int]]], budget: _Budget) -> bool:
    """A row of <th> cells (and blank <td> fillers) before any data row is a
    header row; other rows are data rows, colspans padded with blank cells.
    False when the table's budget is spent (the row is dropped)."""
    width = len(texts) if spans is None else sum(spans)
    if width > MAX_ROW_CELLS:  # colspans widen a row past the bound
        budget.wide(line)
    if not budget.take(line, min(width, MAX_ROW_CELLS)):
        return False
    if header and not rows:
        header_rows.append(list(zip(texts, spans)) if spans is not None else [(c, 1) for c in texts])
    elif spans is None:
        rows.append((line, texts))
    else:
        flat: list[str] = []
        for text, span in zip(texts, spans):
            flat.append(text)
            if span > 1:
                flat.extend([""] * (span - 1))
        rows.append((line, flat[:MAX_ROW_CELLS]))
    return True
