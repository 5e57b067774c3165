"""AWR HTML reports to the same raw :class:`Block` objects the text path produces (spec A.5).

AWR HTML is machine-written and regular: headings and short loose text
between tables, and tables of ``<tr>``/``<th>``/``<td>`` rows. So the report is
not built into a DOM. One forward scan over the text:

* between tables, every tag and piece of text goes to a few event handlers
  (headings, loose text, ``<li>`` notes) that decide the titles;
* a ``<table>`` is only delimited (nested tables, comments, scripts and styles
  inside it found with ``str.find`` on a lower-cased copy) and placed as a
  :class:`_LazyTable` holding offsets; its rows are cut by
  :func:`_cut_table` when a section mapper first asks for them, so tables of
  sections no mapper reads cost one ``find`` (as on the text path).

The structure follows libxml2's HTML parser (which this replaced, see
docs/html.md): tag names in any case, ``<td>``/``<tr>`` close the open
cell/row, a ``<table>`` inside a table nests (the nested table follows its
outer table in the same block), an unclosed table runs to the end of the
input (with a warning), ``<x/>`` is an empty element, a row keeps the line
of its start tag's ``>``, entities are decoded, comments, scripts and styles
are dropped. Nothing is fetched or executed.

How a table gets its title: AWR prints section titles as ``<h2>``/``<h3>``
headings (main report) or as loose text between ``<p />`` tags (summary page,
compare-period and RAC reports). The most recent of the two before a table is
its title; a table with neither since the previous table continues the
previous block (10g Load Profile prints two tables). The ``summary``
attribute is the fallback when a table has no title at all (spec A.5: title
first, summary second).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from html import unescape

from ..errors import NotAReportError
from ..model import ParseIssue
from .numbers import parse_number
from .raw import HTML_HEADER_TITLE as HEADER_TITLE, Block
from .text.tables import RawTable


# Cells longer than this are cut: SQL text and plan cells can be huge and no
# mapper needs more; it keeps memory bounded on hostile input.
MAX_CELL_CHARS = 2000
MAX_ISSUES = 50
_NBSP = "\xa0"
_BREAK_IN_NUMBER = re.compile(r"\s*\n\s*")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
_BLOCK_LEVEL = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "div", "pre", "hr", "dl",
                          "blockquote", "form", "table"})

# A tag's attributes: unquoted runs stop at '<' (an unclosed tag ends its scan
# at the next tag, so hostile input stays linear); quoted values may hold '<'
# and '>' (AWR 12c: id="<8us", id=">=512us").
_ATTRS = r"""((?:[^<>"']++|"[^"]*+"|'[^']*+'){0,256}+)"""
# A tag, a comment opener, a doctype or a processing instruction.
_TAG = re.compile(r"<(?:(/\s*+)?([A-Za-z][A-Za-z0-9:_.-]*+)" + _ATTRS + r">|(!--)|![^>]*+>|\?[^>]*+>)")
# Elements whose content is not text to read: skipped to their end tag.
_RAW_TEXT = ("script", "style", "title", "textarea")
_NAME_END = frozenset(" \t\n\f\r/>")
_ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_COLSPAN = re.compile(r"""colspan\s*=\s*["']?\s*([0-9]*)""", re.I)


def clean_cell(raw: str) -> str:
    """Entity-decoded cell text: ``&nbsp;`` gone, whitespace collapsed, and a
    line break inside a number removed (AWR hard-wraps long numeric cells:
    ``4\\n.6``, ``3,760\\n,240``)."""
    s = raw.replace(_NBSP, " ").strip()
    if "\n" in s and len(s) < 200:  # longer is text (SQL), not a wrapped number
        joined = _BREAK_IN_NUMBER.sub("", s)
        if parse_number(joined).value is not None:
            return joined
    if len(s) > MAX_CELL_CHARS:
        s = s[:MAX_CELL_CHARS]
    # split/join collapses the same whitespace as re's \s+ on a stripped string, 4x faster
    return " ".join(s.split()) if ("  " in s or "\n" in s or "\t" in s) else s


def _decoded(raw: str) -> str:
    return unescape(raw) if "&" in raw else raw


def _attrs(raw: str) -> dict[str, str]:
    """Attributes of a start tag, names lower-cased, values entity-decoded."""
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        name = m.group(1).lower()
        if name not in out:
            value = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
            out[name] = _decoded(value or "")
    return out


class _Splitter:
    """Event handlers for what lies between tables, and the placement of each
    table into the header or a titled block."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.header_tables: list[RawTable] = []
        self.issues: list[ParseIssue] = []
        self.lineno = 1  # line of the last start tag: where text events are said to be
        self._in_anchor = 0
        self._heading: list[str] | None = None  # text of an open <h*>
        self._heading_tag = ""
        self._heading_line = 0
        self._loose: list[str] = []  # text outside tables since the last table or heading
        self._loose_line = 0
        self._pending_title: tuple[str, int] | None = None  # heading not yet used by a table
        self._note: list[str] | None = None
        self._seen_section = False  # a heading other than h1 was met: header tables are over

    # -- tags ----------------------------------------------------------------
    def handle_starttag(self, tag: str) -> None:
        if self._in_anchor and tag in _BLOCK_LEVEL:  # a block element closes an unclosed <a name=...>
            self._in_anchor = 0
        if tag == "br":
            self._data("\n")
        elif tag in _HEADINGS:
            self._heading = []
            self._heading_tag = tag
            self._heading_line = self.lineno
        elif tag == "a":
            self._in_anchor += 1
        elif tag == "li":
            if self._note is not None:  # an <li> closes the previous one (AWR 10g never closes them)
                self.handle_endtag("li")
            self._note = []
        elif tag == "p" and self._loose:
            self._loose.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HEADINGS and self._heading is not None:
            title = clean_cell("".join(self._heading))
            self._heading = None
            if title:
                self._pending_title = (title, self._heading_line)
                self._loose = []
                if self._heading_tag != "h1":
                    self._seen_section = True
        elif tag == "a":
            self._in_anchor = max(0, self._in_anchor - 1)
        elif tag == "li" and self._note is not None:
            note = clean_cell("".join(self._note))
            self._note = None
            if note and self.blocks:
                self.blocks[-1].notes.append(note)
        elif tag in ("ul", "ol") and self._note is not None:
            self.handle_endtag("li")

    def handle_data(self, data: str) -> None:
        self._data(data)

    def _data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)
        elif self._note is not None:
            self._note.append(data)
        elif not self._in_anchor and data.strip():
            if not self._loose:
                self._loose_line = self.lineno
            self._loose.append(data)

    # -- tables ----------------------------------------------------------------
    def place(self, table: RawTable, summary: str, line: int) -> list[RawTable]:
        """Put a top-level table into the header or a block; returns the list it
        went into (its nested tables follow it there)."""
        loose = clean_cell(" ".join(self._loose)) if self._loose else ""
        loose_line = self._loose_line
        self._loose = []
        if not self._seen_section and self._pending_title is None and not loose:
            self.header_tables.append(table)
            return self.header_tables
        if not self._seen_section and not loose and self._pending_title and \
                self._pending_title[0].upper().startswith("WORKLOAD REPOSITORY"):
            self.header_tables.append(table)
            return self.header_tables
        if loose:
            self._seen_section = True
            self._new_block(loose.strip(), loose_line, table)
        elif self._pending_title is not None:
            self._seen_section = True
            title, tline = self._pending_title
            self._new_block(title, tline, table)
        elif self.blocks:
            self.blocks[-1].tables.append(table)
        else:
            self._new_block(summary or "table", line, table)
        self._pending_title = None
        return self.blocks[-1].tables

    def _new_block(self, title: str, line: int, table: RawTable) -> None:
        self.blocks.append(Block(title, line, [], [table], [], line, "html"))

    def issue(self, level: str, line: int, message: str) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(ParseIssue(level, None, line, message))


class _Lines:
    """1-based line of a position, for positions met in increasing order:
    each newline is counted once (``str.count`` from the last position)."""

    __slots__ = ("text", "pos", "line")

    def __init__(self, text: str):
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        if pos > self.pos:
            self.line += self.text.count("\n", self.pos, pos)
            self.pos = pos
        return self.line


class _Scanner:
    """The forward scan: loose content through the handlers, tables delimited."""

    def __init__(self, text: str, splitter: _Splitter):
        self.text = text
        low = text.lower()
        if len(low) != len(text):  # a character whose lower case is longer: fold ASCII only
            low = text.translate(_ASCII_LOWER)
        self.low = low
        self.splitter = splitter
        self.lines = _Lines(text)
        self.ahead = [-2] * len(_TABLE_EVENTS)  # next position of each of _TABLE_EVENTS (-1: none left)

    def run(self) -> None:
        text, sp = self.text, self.splitter
        search = _TAG.search
        pos, n = 0, len(text)
        while pos < n:
            m = search(text, pos)
            if m is None:
                self._data(text[pos:])
                return
            if m.start() > pos:
                self._data(text[pos:m.start()])
            name = m.group(2)
            if name is None:
                pos = self._skip_comment(m.end()) if m.group(4) else m.end()
                continue
            tag = name.lower()
            if m.group(1):  # end tag
                sp.handle_endtag(tag)
                pos = m.end()
                continue
            sp.lineno = self.lines.at(m.end() - 1)
            if tag == "table":
                sp.handle_starttag(tag)
                pos = self._table(m)
            elif tag in _RAW_TEXT:
                pos = self._skip_raw_text(tag, m.end())
            else:
                sp.handle_starttag(tag)
                if m.group(3).endswith("/"):  # <x/>: an empty element
                    sp.handle_endtag(tag)
                pos = m.end()

    def _data(self, raw: str) -> None:
        self.splitter.handle_data(_decoded(raw))

    def _skip_comment(self, pos: int) -> int:
        end = self.text.find("-->", pos)
        return len(self.text) if end < 0 else end + 3

    def _skip_raw_text(self, tag: str, pos: int) -> int:
        end = self.low.find("</" + tag, pos)
        if end < 0:
            return len(self.text)
        close = self.text.find(">", end)
        return len(self.text) if close < 0 else close + 1

    def _table(self, start: re.Match) -> int:
        """Delimit the table opened by ``start`` and the tables nested in it, and
        place them (:meth:`_close`). Returns the position after the outermost
        ``</table>``."""
        text, low = self.text, self.low
        stack = [_OpenTable(start, self.lines.at(start.end() - 1))]
        pos = start.end()
        while stack:
            pos = self._next_table_event(pos)
            if pos < 0:
                break
            if low.startswith("<!--", pos):
                end = self._skip_comment(pos + 4)
                stack[-1].holes.append((pos, end, self.lines.at(end)))
                pos = end
            elif low.startswith("</table", pos):
                if pos + 7 < len(text) and text[pos + 7] not in _NAME_END:
                    pos += 7
                    continue
                close = text.find(">", pos)
                end = len(text) if close < 0 else close + 1
                table = stack.pop()
                table.content_end = pos
                self._close(table, stack)
                if stack:
                    stack[-1].holes.append((table.start, end, self.lines.at(end)))
                pos = end
            else:
                tag = "table" if low.startswith("<table", pos) else "script" if low.startswith("<script", pos) else "style"
                after = pos + 1 + len(tag)
                m = _TAG.match(text, pos) if after < len(text) and text[after] in _NAME_END else None
                if m is None:
                    pos = after
                    continue
                if tag == "table":
                    stack.append(_OpenTable(m, self.lines.at(m.end() - 1)))
                    pos = m.end()
                else:
                    end = self._skip_raw_text(tag, m.end())
                    stack[-1].holes.append((pos, end, self.lines.at(end)))
                    pos = end
        # libxml2 closes what is open at the end of the input: so does this, with a warning
        while stack:
            table = stack.pop()
            table.content_end = len(text)
            self.splitter.issue("warning", table.line, "a table was not closed before the end of the file")
            self._close(table, stack)
            if stack:
                stack[-1].holes.append((table.start, len(text), 0))
        return pos if pos > start.end() else len(text)

    def _next_table_event(self, pos: int) -> int:
        """Position of the next ``<table``, ``</table``, ``<!--``, ``<script`` or
        ``<style`` at or after ``pos`` (-1: none). Each needle's next position is
        kept, so every needle scans the text once."""
        best = -1
        ahead = self.ahead
        for k, needle in enumerate(_TABLE_EVENTS):
            at = ahead[k]
            if at < pos and at != -1:
                at = ahead[k] = self.low.find(needle, pos)
            if at >= 0 and (best < 0 or at < best):
                best = at
        return best

    def _close(self, table: "_OpenTable", stack: list["_OpenTable"]) -> None:
        """A nested table goes with its outer table, after it, in the order the
        tables close; a top-level table is placed now."""
        table.raw = self._raw_table(table)
        if stack:
            stack[-1].nested.append(table)
            return
        summary = _attrs(table.attrs).get("summary", "")[:300] if "summary" in table.attrs.lower() else ""
        into = self.splitter.place(table.raw, summary, table.line)
        todo = table.nested[::-1]  # depth first, each table before the ones inside it, without recursion
        while todo:
            inner = todo.pop()
            into.append(inner.raw)
            todo.extend(inner.nested[::-1])

    def _raw_table(self, table: "_OpenTable") -> RawTable:
        segments = []
        a, a_line = table.content_start, table.line
        for h0, h1, h1_line in table.holes:
            if h0 > a:
                segments.append((a, h0, a_line))
            if h1 > a:
                a, a_line = h1, h1_line
        if table.content_end > a:
            segments.append((a, table.content_end, a_line))
        return _LazyTable(self.text, segments, table.line)


_TABLE_EVENTS = ("<table", "</table", "<!--", "<script", "<style")
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


class _OpenTable:
    __slots__ = ("start", "content_start", "content_end", "attrs", "line", "holes", "nested", "raw")

    def __init__(self, m: re.Match, line: int):
        self.start = m.start()
        self.content_start = m.end()
        self.content_end = m.end()
        self.attrs = m.group(3)
        self.line = line
        # nested tables, comments, scripts (start, end, line at end): not this table's text
        self.holes: list[tuple[int, int, int]] = []
        self.nested: list[_OpenTable] = []  # tables inside, in the order they close
        self.raw: RawTable | None = None


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
        grids.append(flat)
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
_RAW_ROWS_SLOT = RawTable.__dict__["raw_rows"]
_ROWS_SLOT = RawTable.__dict__["_rows"]


class _LazyTable(RawTable):
    """A table still as offsets into the report text: columns, rows and raw
    rows are cut on first access (:func:`_cut_table`)."""

    __slots__ = ("_text", "_segments")

    def __init__(self, text: str, segments: list[tuple[int, int, int]], line: int):
        self._text = text
        self._segments = segments
        self.spans = []
        self.header_line = line
        self._owner = None

    def _load_columns(self) -> None:
        """Columns from the header rows alone (they precede every data row);
        a table without header rows takes its width from all its rows."""
        header_rows, _ = _cut_table(self._text, self._segments, self.header_line, header_only=True)
        if header_rows:
            _COLUMNS_SLOT.__set__(self, _column_names(header_rows))
        else:
            self._load()

    def _load(self) -> None:
        text, self._text = self._text, None
        header_rows, rows = _cut_table(text, self._segments, self.header_line)
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
        text = _CLEAN_CACHE[raw] = clean_cell(_decoded(raw))
    return text


# A tag that is not a row, cell or row group: the table needs _cut_marked_up.
_MARKUP = re.compile(r"<(?!/?(?:t[rdh]|tbody|thead|tfoot)[\s/>])", re.I)
_ROW_TAG = re.compile(r"<tr(?=[\s/>])", re.I)
_HEADER_ROWS_LOOKED_AT = 6  # AWR prints at most 3 header rows; the first data row ends the look
_CELL_TEXT = re.compile(r"<[tT][dhDH](?=[\s/>])" + _ATTRS.replace("((?:", "(?:(?:", 1) + r">([^<]*+)")
# The same, twice as fast, for tables without a quoted attribute value holding '>'.
_CELL_TEXT_PLAIN = re.compile(r"<[tT][dhDH](?=[\s/>])[^>]*+>([^<]*+)")
_QUOTED_GT = re.compile(r"""="[^"<>]*>|='[^'<>]*>""")
# Inline tags inside cells (SQL id links, <div>/<span> wrappers) on one line:
# dropping them leaves the cell text and the line numbers as they were.
_INLINE = re.compile(r"</?(?:a|span|div|font|b|i)(?=[\s/>])[^<>\n]*+>", re.I)
_CELL = re.compile(r"<[tT]([dhDH])(?=[\s/>])" + _ATTRS + r">([^<]*+)")
# Any tag with the text after it, for tables with markup inside cells.
_TAG_AND_TEXT = re.compile(r"<(?:(/\s*+)?([A-Za-z][A-Za-z0-9:_.-]*+)" + _ATTRS + r">|![^>]*+>|\?[^>]*+>|)([^<]*+)")


def _cut_table(text: str, segments: list[tuple[int, int, int]], line: int,
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
                header_rows, rows = _cut_table(text, [(a, nxt.start(), a_line)], line)
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
            plain = _INLINE.sub("", own)
            if _MARKUP.search(plain) is not None:
                plain = None
        if plain is not None:
            cut = _cut_rows(plain, bases[0][1], with_spans, header_only)
            if cut is not None:
                return cut
    return _cut_marked_up(own, _JoinedLines(own, bases), with_spans, header_only)


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
    return max(1, min(int(m.group(1)), 64))


def _cut_rows(own: str, line: int, with_spans: bool, header_only: bool):
    """Rows of a table whose tags are all <tr>/<td>/<th> (and row groups), or
    None when a cell comes before the first <tr>. The text is split at
    each <tr>, a row's cell texts are one findall, and cleaned through the
    cache in one map. Rows that may be header rows (before the first data
    row), and rows with colspans or <td/>, take the per-cell way."""
    rows: list[tuple[int, list[str]]] = []
    header_rows: list[list[tuple[str, int]]] = []
    chunks = _ROW_TAG.split(own)
    if _CELL.search(chunks[0]):  # a cell before any <tr>: an implied row
        return None
    line += chunks[0].count("\n")
    get, clean = _CLEAN_CACHE.get, _clean_cached
    cell_texts = (_CELL_TEXT if _QUOTED_GT.search(own) else _CELL_TEXT_PLAIN).findall
    for chunk in chunks[1:]:
        row_line = line + chunk.count("\n", 0, chunk.find(">"))  # the '>' of <tr ...>, as libxml2 counts
        line += chunk.count("\n")
        if rows and not (with_spans and ("pan" in chunk or "PAN" in chunk)) and "/>" not in chunk:
            raws = cell_texts(chunk)
            if raws:
                cells = list(map(get, raws))
                if None in cells:
                    cells = [clean(raw) if c is None else c for c, raw in zip(cells, raws)]
                rows.append((row_line, cells))
            continue
        texts, spans, has_th, row_is_header = [], None, False, True
        for kind, attrs, raw in _CELL.findall(chunk):
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
            _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows)
            if header_only and rows:
                break
    return header_rows, rows


def _cut_marked_up(own: str, lines: _JoinedLines, with_spans: bool, header_only: bool):
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

    for m in _TAG_AND_TEXT.finditer(own):
        close, name, attrs, tail = m.groups()
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
                    _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows)
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
        _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows)
    return header_rows, rows


def _close_row(texts: list[str], spans: list[int] | None, header: bool, line: int,
               rows: list[tuple[int, list[str]]], header_rows: list[list[tuple[str, int]]]) -> None:
    """A row of <th> cells (and blank <td> fillers) before any data row is a
    header row; other rows are data rows, colspans padded with blank cells."""
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
        rows.append((line, flat))


_WRAP_MIN_WIDTH = 200
_WRAP_MIN_LINES = 20


def _hard_wrap_width(text: str) -> int | None:
    """The width at which a tool or a mailer cut every line of the report
    (lines of exactly that many characters, none longer), else None. A first
    look at the head keeps unwrapped reports from paying a full count."""
    head = text[:200_000].split("\n")[:-1]
    widths = [len(line) for line in head if len(line) >= _WRAP_MIN_WIDTH]
    if len(widths) < 5:
        return None
    width = max(widths)
    if widths.count(width) < 5:
        return None
    lengths = [len(line) for line in text.split("\n")[:-1]]
    if max(lengths) != width or lengths.count(width) < _WRAP_MIN_LINES:
        return None
    return width


def _unwrap(text: str, width: int) -> str:
    """Mend a hard wrap: the newline ending a line of exactly ``width``
    characters is moved forward to just before the next ``<``, so tags, words
    and numbers cut by it are whole again, while every tag stays on the line
    it was printed on (rows keep their line numbers)."""
    out: list[str] = []
    pending = 0
    lines = text.split("\n")
    last = len(lines) - 1
    for k, line in enumerate(lines):
        if pending:
            j = line.find("<")
            if j >= 0:
                out += (line[:j], "\n" * pending, line[j:])
                pending = 0
            else:
                out.append(line)
        else:
            out.append(line)
        if k == last:
            out.append("\n" * pending)
        elif len(line) == width:
            pending += 1
        else:
            out.append("\n" * (pending + 1))
            pending = 0
    return "".join(out)


def blocks_from_html(text: str) -> tuple[list[str], int, list[Block], list[ParseIssue]]:
    """(header lines, header first line, blocks, issues).

    The header tables travel as the first block, titled :data:`HEADER_TITLE`;
    ``header_lines`` are their rows as plain text (for the ``Elapsed:`` and
    ``DB/Inst:`` fallbacks that work on lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    splitter = _Splitter()
    width = _hard_wrap_width(text)
    if width:
        text = _unwrap(text, width)
        splitter.issue("info", None, f"the HTML was hard-wrapped at {width} characters (lines cut inside tags "
                                     "and numbers): the cuts were mended before reading")
    _Scanner(text, splitter).run()
    header = Block(HEADER_TITLE, splitter.header_tables[0].header_line if splitter.header_tables else 1,
                   [], splitter.header_tables, [], 1, "html")
    if not splitter.header_tables and not splitter.blocks:
        raise NotAReportError("the HTML holds no AWR table")
    header_lines = ["  ".join(c) for t in splitter.header_tables for _, c in t.rows]
    return header_lines, header.line, [header] + splitter.blocks, splitter.issues
