"""AWR HTML reports to the same raw :class:`Block` objects the text path produces (spec A.5).

One pass of event handlers fed by lxml (libxml2's HTML parser: forgiving of
unclosed and upper-case tags, attributes split over lines, text before
``<html>``; entities decoded; nothing fetched or executed). Plain tables are
read straight from the tree; the standard library's :class:`html.parser.HTMLParser`
feeds the same handlers when lxml is missing. lxml makes the HTML parse about
2x faster end to end (docs/html.md, bench/RESULTS.md).

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
from html.parser import HTMLParser

try:  # libxml2's HTML tokenizer when installed (a dependency); the stdlib one otherwise
    from lxml import etree as _etree
except ImportError:  # pragma: no cover - lxml is a declared dependency
    _etree = None

from ..errors import NotAReportError
from ..model import ParseIssue
from .numbers import parse_number
from .raw import HTML_HEADER_TITLE as HEADER_TITLE, Block
from .text.tables import RawTable


# Cells longer than this are cut: SQL text and plan cells can be huge and no
# mapper needs more; it keeps memory bounded on hostile input.
MAX_CELL_CHARS = 2000
MAX_ISSUES = 50
# lxml builds the whole tree first (about 20x the input at its peak: a 30 MB
# report peaks at 645 MB RSS); past this size the stdlib tokenizer streams
# through the text instead, 3x slower but with memory under 8x the input
# (issue 8: a 200 MB report in bounded memory). Every corpus report (<= 2.2 MB)
# takes the lxml path.
TREE_MAX_CHARS = 8_000_000
_NBSP = "\xa0"
_BREAK_IN_NUMBER = re.compile(r"\s*\n\s*")
_SKIP_TEXT = frozenset({"script", "style", "title", "head"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})


def clean_cell(raw: str) -> str:
    """Entity-decoded cell text: ``&nbsp;`` gone, whitespace collapsed, and a
    line break inside a number removed (AWR hard-wraps long numeric cells:
    ``4\\n.6``, ``3,760\\n,240``)."""
    s = raw.replace(_NBSP, " ").strip()
    if "\n" in s:
        joined = _BREAK_IN_NUMBER.sub("", s)
        if parse_number(joined).value is not None:
            return joined
    if len(s) > MAX_CELL_CHARS:
        s = s[:MAX_CELL_CHARS]
    # split/join collapses the same whitespace as re's \s+ on a stripped string, 4x faster
    return " ".join(s.split()) if ("  " in s or "\n" in s or "\t" in s) else s


class _Table:
    __slots__ = ("summary", "line", "header_rows", "rows", "row", "row_line", "row_is_header", "cell", "cell_span",
                 "cell_is_th")

    def __init__(self, summary: str, line: int):
        self.summary = summary
        self.line = line
        self.header_rows: list[list[tuple[str, int]]] = []
        self.rows: list[tuple[int, list[str]]] = []
        self.row: list[tuple[str, int, bool]] | None = None
        self.row_line = line
        self.row_is_header = True
        self.cell: list[str] | None = None
        self.cell_span = 1
        self.cell_is_th = False


class _AwrHtmlSplitter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.header_tables: list[RawTable] = []
        self.issues: list[ParseIssue] = []
        self._tables: list[_Table] = []  # open tables, innermost last (nested tables)
        self._skip = 0  # inside script/style/title
        self._in_anchor = 0
        self._in_list_item = False
        self._heading: list[str] | None = None  # text of an open <h*>
        self._heading_tag = ""
        self._heading_line = 0
        self._loose: list[str] = []  # text outside tables since the last table or heading
        self._loose_line = 0
        self._pending_title: tuple[str, int] | None = None  # heading not yet used by a table
        self._note: list[str] | None = None
        self._seen_section = False  # a heading other than h1 was met: header tables are over

    # -- tags ----------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TEXT:
            self._skip += 1
            return
        if tag == "table":
            self._open_table(attrs)
        elif tag == "tr":
            self._open_row()
        elif tag in ("td", "th"):
            self._open_cell(tag, attrs)
        elif tag == "br":
            self._data("\n")
        elif tag in _HEADINGS and not self._tables:
            self._heading = []
            self._heading_tag = tag
            self._heading_line = self.getpos()[0]
        elif tag == "a":
            self._in_anchor += 1
        elif tag == "li" and not self._tables:
            self._note = []
        elif tag == "p" and not self._tables and self._loose:
            self._loose.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._data("\n")
        elif tag == "p" and not self._tables and self._loose:
            self._loose.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TEXT:
            self._skip = max(0, self._skip - 1)
            return
        if tag == "table":
            self._close_table()
        elif tag == "tr":
            self._close_row()
        elif tag in ("td", "th"):
            self._close_cell()
        elif tag in _HEADINGS and self._heading is not None:
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

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self._data(data)

    def _data(self, data: str) -> None:
        if self._tables:
            t = self._tables[-1]
            if t.cell is not None:
                t.cell.append(data)
            return
        if self._heading is not None:
            self._heading.append(data)
        elif self._note is not None:
            self._note.append(data)
        elif not self._in_anchor and data.strip():
            if not self._loose:
                self._loose_line = self.getpos()[0]
            self._loose.append(data)

    # -- tables ----------------------------------------------------------------
    def _open_table(self, attrs: list[tuple[str, str | None]]) -> None:
        summary = ""
        for k, v in attrs:
            if k == "summary" and v:
                summary = v[:300]
        self._tables.append(_Table(summary, self.getpos()[0]))

    def _open_row(self) -> None:
        if not self._tables:
            return
        t = self._tables[-1]
        self._close_row()
        t.row = []
        t.row_line = self.getpos()[0]
        t.row_is_header = True

    def _open_cell(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._tables:
            return
        t = self._tables[-1]
        if t.row is None:  # <td> without <tr>
            self._open_row()
        self._close_cell()
        span = 1
        for k, v in attrs:
            if k == "colspan" and v and v.strip().isdigit():
                span = max(1, min(int(v.strip()), 64))
        t.cell = []
        t.cell_span = span
        t.cell_is_th = tag == "th"

    def _close_cell(self) -> None:
        t = self._tables[-1] if self._tables else None
        if t is None or t.cell is None or t.row is None:
            return
        text = clean_cell("".join(t.cell))
        # a header row is made of <th> cells and blank <td> fillers
        if not t.cell_is_th and text:
            t.row_is_header = False
        t.row.append((text, t.cell_span, t.cell_is_th))
        t.cell = None

    def _close_row(self) -> None:
        t = self._tables[-1] if self._tables else None
        if t is None or t.row is None:
            return
        self._close_cell()
        cells = t.row
        t.row = None
        if not cells:
            return
        if t.row_is_header and not t.rows and any(is_th for _, _, is_th in cells):
            t.header_rows.append([(c, span) for c, span, _ in cells])
            return
        flat: list[str] = []
        for text, span, _ in cells:
            flat.append(text)
            flat.extend([""] * (span - 1))
        t.rows.append((t.row_line, flat))

    def _close_table(self) -> None:
        if not self._tables:
            return
        self._close_row()
        t = self._tables.pop()
        raw = RawTable(_column_names(t.header_rows), [], t.line, t.rows,
                       [(ln, "  ".join(cells)) for ln, cells in t.rows])
        if not raw.columns and t.rows:
            raw.columns = [""] * max(len(c) for _, c in t.rows)
        self._place(raw, t.summary, t.line)

    def _place(self, table: RawTable, summary: str, line: int) -> None:
        loose = clean_cell(" ".join(self._loose)) if self._loose else ""
        loose_line = self._loose_line
        self._loose = []
        if self._tables:  # nested table: belongs to the block of its outer table
            if self.blocks and self._seen_section:
                self.blocks[-1].tables.append(table)
            else:
                self.header_tables.append(table)
            return
        if not self._seen_section and self._pending_title is None and not loose:
            self.header_tables.append(table)
            return
        if not self._seen_section and not loose and self._pending_title and \
                self._pending_title[0].upper().startswith("WORKLOAD REPOSITORY"):
            self.header_tables.append(table)
            return
        if loose:
            self._seen_section = True
            self._new_block(_last_line(loose), loose_line, table)
        elif self._pending_title is not None:
            self._seen_section = True
            title, tline = self._pending_title
            self._new_block(title, tline, table)
        elif self.blocks:
            self.blocks[-1].tables.append(table)
        else:
            self._new_block(summary or "table", line, table)
        self._pending_title = None

    def _new_block(self, title: str, line: int, table: RawTable) -> None:
        self.blocks.append(Block(title, line, [], [table], [], line, "html"))

    def error(self, message: str) -> None:  # pragma: no cover - older Pythons only
        self._issue("warning", f"HTML not well formed: {message}")

    def _issue(self, level: str, message: str) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(ParseIssue(level, None, self.getpos()[0], message))


def _last_line(loose: str) -> str:
    """Loose text may hold more than a title (a 'No data exists' sentence, a
    caption); the title is the last short piece."""
    return loose.strip()


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


def _feed_lxml(splitter: _AwrHtmlSplitter, text: str) -> None:
    """Tokenise with libxml2 (lxml) and replay the tree as the start/data/end
    events :class:`HTMLParser` would give: about 4x faster than the stdlib
    tokenizer on AWR HTML, with the same handlers. ``lineno`` is set from each
    element's source line so rows keep their provenance."""
    parser = _etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, huge_tree=True,
                               recover=True, default_doctype=False, encoding="utf-8")
    data = text.encode("utf-8", "surrogatepass")
    try:
        root = _etree.fromstring(data, parser)
    except _etree.XMLSyntaxError:  # nothing parseable at all (an empty document)
        return
    del data
    if root is None:
        return
    not_plain = _not_plain_tables(root)
    start, end, data = splitter.handle_starttag, splitter.handle_endtag, splitter.handle_data
    walker = _etree.iterwalk(root, events=("start", "end"))
    read_whole = None  # the table read in one go, whose subtree the walk skips
    for event, el in walker:
        tag = el.tag
        if type(tag) is not str:  # entities left as nodes
            continue
        if event == "start":
            line = el.sourceline
            if line:
                splitter.lineno = line
            if tag == "table" and not splitter._skip and el not in not_plain:
                _read_table(splitter, el)
                walker.skip_subtree()
                read_whole = el
                continue
            start(tag, el.items())
            if el.text:
                data(el.text)
        else:
            if el is not read_whole:
                end(tag)
            if el.tail:
                data(el.tail)
    # libxml2 closes what is open at the end of the input without a word: count the tags
    opened = text.count("<table") + text.count("<TABLE")
    closed = text.count("</table") + text.count("</TABLE")
    for _ in range(min(opened - closed, 3)):
        splitter._issue("warning", "a table was not closed before the end of the file")


_NOT_PLAIN = ("table", "script", "style", "title", "head")


def _not_plain_tables(root) -> set:
    """The tables with a nested table or skipped text inside, in one pass over the
    document (the others are plain: :func:`_plain_table`). The set holds the
    elements' proxies, so the walk meets these very objects again."""
    out: set = set()
    for e in root.iter(*_NOT_PLAIN):
        for a in e.iterancestors("table"):
            if a in out:  # its own table ancestors were marked with it
                break
            out.add(a)
    return out


def _plain_table(el) -> bool:
    """A table without nested tables or skipped text inside: its rows can be read
    straight from the tree (the common case, every AWR table)."""
    for _ in el.iterdescendants(*_NOT_PLAIN):
        return False
    return True


def _read_table(splitter: _AwrHtmlSplitter, el) -> None:
    """Place a plain table as the event handlers would, without reading it: its
    cells are cut only when a mapper first asks for them (:class:`_LazyTable`),
    so tables of sections no mapper reads cost nothing (as on the text path)."""
    summary = el.get("summary") or ""
    line = el.sourceline or splitter.lineno
    splitter._place(_LazyTable(el, line), summary[:300], line)


_COLUMNS_SLOT = RawTable.__dict__["columns"]
_RAW_ROWS_SLOT = RawTable.__dict__["raw_rows"]
_ROWS_SLOT = RawTable.__dict__["_rows"]


class _LazyTable(RawTable):
    """A plain HTML table still in the lxml tree: columns, rows and raw rows are
    read from it on first access, exactly as an eager read would give them."""

    __slots__ = ("_el",)

    def __init__(self, el, line: int):
        self._el = el
        self.spans = []
        self.header_line = line
        self._owner = None

    def _load_columns(self) -> None:
        """Columns from the header rows alone (they precede every data row);
        a table without header rows takes its width from all its rows."""
        header_rows, _ = _table_rows(self._el, self.header_line, header_only=True)
        if header_rows:
            _COLUMNS_SLOT.__set__(self, _column_names(header_rows))
        else:
            self._load()

    def _load(self) -> None:
        el = self._el
        self._el = None
        header_rows, rows = _table_rows(el, self.header_line)
        columns = _column_names(header_rows)
        if not columns and rows:
            columns = [""] * max(len(c) for _, c in rows)
        try:
            _COLUMNS_SLOT.__get__(self)
        except AttributeError:
            _COLUMNS_SLOT.__set__(self, columns)
        _ROWS_SLOT.__set__(self, rows)
        _RAW_ROWS_SLOT.__set__(self, [(ln, "  ".join(cells)) for ln, cells in rows])

    @property
    def columns(self) -> list[str]:
        try:
            return _COLUMNS_SLOT.__get__(self)
        except AttributeError:  # not read yet
            self._load_columns()
            return _COLUMNS_SLOT.__get__(self)

    @columns.setter
    def columns(self, value: list[str]) -> None:
        if self._el is not None:
            self._load()
        _COLUMNS_SLOT.__set__(self, value)

    @property
    def raw_rows(self) -> list[tuple[int, str]]:
        if self._el is not None:
            self._load()
        return _RAW_ROWS_SLOT.__get__(self)

    @raw_rows.setter
    def raw_rows(self, value: list[tuple[int, str]]) -> None:
        if self._el is not None:
            self._load()
        _RAW_ROWS_SLOT.__set__(self, value)

    @property
    def rows(self) -> list[tuple[int, list[str]]]:
        if self._el is not None:
            self._load()
        return _ROWS_SLOT.__get__(self)

    @rows.setter
    def rows(self, value: list[tuple[int, list[str]]]) -> None:
        if self._el is not None:
            self._load()
        _ROWS_SLOT.__set__(self, value)


# clean_cell of a cell's raw text, by that text: AWR tables repeat values
# (0, 0.0, wait classes, units) and clean_cell is pure.
_CLEAN_CACHE: dict[str, str] = {}
_CLEAN_CACHE_MAX = 50_000


def _table_rows(el, line: int, header_only: bool = False) -> tuple[list[list[tuple[str, int]]], list[tuple[int, list[str]]]]:
    """What the event handlers would make of a plain table, without one Python
    call per tag: (header rows, rows of cleaned cells); <th> rows are header
    rows, colspans expanded. ``header_only`` stops at the first data row."""
    rows: list[tuple[int, list[str]]] = []
    header_rows: list[list[tuple[str, int]]] = []
    texts: list[str] | None = None  # cells of the open row
    spans: list[int] | None = None  # their colspans, once one is not 1
    has_th = False
    row_line = line
    row_is_header = True
    cache = _CLEAN_CACHE
    get = cache.get
    with_spans = _HAS_COLSPAN(el)
    for node in el.iter("tr", "td", "th"):
        tag = node.tag
        if tag == "tr" or texts is None:
            if texts:
                _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows)
                if header_only and rows:
                    break
            texts = []
            spans = None
            has_th = False
            row_line = node.sourceline or row_line
            row_is_header = True
            if tag == "tr":
                continue
        if len(node):
            text = clean_cell(_cell_text(node))
        else:
            raw = node.text
            if raw:
                text = get(raw)
                if text is None:
                    if len(cache) > _CLEAN_CACHE_MAX:
                        cache.clear()
                    text = cache[raw] = clean_cell(raw)
            else:
                text = ""
        if with_spans:
            colspan = node.get("colspan")
            if colspan:
                colspan = colspan.strip()
                if colspan.isdigit():
                    span = max(1, min(int(colspan), 64))
                    if span != 1 and spans is None:
                        spans = [1] * len(texts)
                    if spans is not None:
                        spans.append(span)
                elif spans is not None:
                    spans.append(1)
            elif spans is not None:
                spans.append(1)
        if tag == "th":
            has_th = True
        elif text:
            row_is_header = False
        texts.append(text)
    if texts:
        _close_row(texts, spans, has_th and row_is_header, row_line, rows, header_rows)
    return header_rows, rows


_HAS_COLSPAN = _etree.XPath("boolean(.//@colspan)") if _etree is not None else None


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


def _cell_text(node) -> str:
    """Text of a cell with markup inside (<a>, <b>, <br>): <br> is a line break."""
    parts = [node.text or ""]
    for sub in node.iterdescendants():
        if sub.tag == "br":
            parts.append("\n")
        elif sub.text and type(sub.tag) is str:
            parts.append(sub.text)
        if sub.tail:
            parts.append(sub.tail)
    return "".join(parts)


def blocks_from_html(text: str) -> tuple[list[str], int, list[Block], list[ParseIssue]]:
    """(header lines, header first line, blocks, issues).

    The header tables travel as the first block, titled :data:`HEADER_TITLE`;
    ``header_lines`` are their rows as plain text (for the ``Elapsed:`` and
    ``DB/Inst:`` fallbacks that work on lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    splitter = _AwrHtmlSplitter()
    try:
        if _etree is not None and len(text) <= TREE_MAX_CHARS:
            _feed_lxml(splitter, text)
        else:
            splitter.feed(text)
            splitter.close()
    except (AssertionError, ValueError, IndexError) as e:  # parser gave up: keep what was read
        splitter._issue("error", f"the HTML could not be read to the end ({type(e).__name__}); "
                                 "sections after that point are missing")
    while splitter._tables:  # unclosed tables at end of input
        splitter._close_table()
        splitter._issue("warning", "a table was not closed before the end of the file")
    header = Block(HEADER_TITLE, splitter.header_tables[0].header_line if splitter.header_tables else 1,
                   [], splitter.header_tables, [], 1, "html")
    if not splitter.header_tables and not splitter.blocks:
        raise NotAReportError("the HTML holds no AWR table")
    header_lines = ["  ".join(c) for t in splitter.header_tables for _, c in t.rows]
    return header_lines, header.line, [header] + splitter.blocks, splitter.issues
