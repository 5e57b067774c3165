"""The forward scan: headings, loose text and notes between tables decide the titles;
tables are only delimited and placed as lazy tables."""
from __future__ import annotations

import os
import re

from ....model import ParseIssue
from ..raw import Block
from ..text.tables import RawTable
from .cells import (
    _BLOCK_LEVEL,
    _HEADINGS,
    _NAME_END,
    _RAW_TEXT,
    _TAG,
    MAX_CELL_CHARS,
    MAX_ISSUES,
    _attrs,
    _decoded,
    clean_cell,
)
from .tables import _LazyTable


class _Splitter:
    """Event handlers for what lies between tables, and the placement of each
    table into the header or a titled block."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.header_tables: list[RawTable] = []
        self.issues: list[ParseIssue] = []
        self.lines: _Lines | None = None  # set by the scanner; the line of a position is counted when asked
        self.tag_pos = 0  # position of the last start tag's '>': where text events are said to be
        self.tag_line: int | None = 1  # its line, None until asked for
        self._in_anchor = 0
        self._heading: list[str] | None = None  # text of an open <h*>
        self._heading_tag = ""
        self._heading_line = 0
        self._loose: list[str] = []  # text outside tables since the last table or heading
        self._loose_line = 0
        self._pending_title: tuple[str, int] | None = None  # heading not yet used by a table
        self._pending_notes: list[str] = []  # notes printed under that heading, before its table: the section's own
        self._note: list[str] | None = None
        self._seen_section = False  # a heading other than h1 was met: header tables are over
        self._notes_cut: Block | None = None  # the last block whose notes went past MAX_NOTES

    @property
    def lineno(self) -> int:
        """Line of the last start tag, counted only when an event needs it (a heading, loose text, a
        warning): most tags between tables are never placed."""
        if self.tag_line is None:
            self.tag_line = self.lines.at(self.tag_pos)
        return self.tag_line

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
            _keep(self._loose, "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HEADINGS and self._heading is not None:
            title = clean_cell("".join(self._heading))
            self._heading = None
            if title:
                self._pending_title = (title, self._heading_line)
                self._pending_notes = []  # a heading without a table (a contents list) keeps none of its notes
                self._loose = []
                if self._heading_tag != "h1":
                    self._seen_section = True
        elif tag == "a":
            self._in_anchor = max(0, self._in_anchor - 1)
        elif tag == "li" and self._note is not None:
            note = clean_cell("".join(self._note))
            self._note = None
            if note and self._pending_title is not None:  # AWR prints a section's notes between its title and table
                if len(self._pending_notes) < MAX_NOTES:
                    self._pending_notes.append(note)
            elif note and self.blocks:
                notes = self.blocks[-1].notes
                if len(notes) < MAX_NOTES:
                    notes.append(note)
                elif self._notes_cut is not self.blocks[-1]:  # said once a section
                    self._notes_cut = self.blocks[-1]
                    self.issue("warning", self.lineno, f"section '{self.blocks[-1].title[:80]}' lists more than "
                               f"{MAX_NOTES} notes: the rest are not read")
        elif tag in ("ul", "ol") and self._note is not None:
            self.handle_endtag("li")

    def _data(self, data: str) -> None:
        if self._heading is not None:
            _keep(self._heading, data)
        elif self._note is not None:
            _keep(self._note, data)
        elif not self._in_anchor and data.strip():
            if not self._loose:
                self._loose_line = self.lineno
            _keep(self._loose, data)

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
        self.blocks.append(Block(title, line, self._pending_notes, [table], [], line, "html"))
        self._pending_notes = []

    def issue(self, level: str, line: int, message: str) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(ParseIssue(level, None, line, message))

# A heading, a note or the loose text before a table is cut at MAX_CELL_CHARS once cleaned: four times
# that is kept of its raw text, so millions of text pieces between two tables ('<b>ab' repeated) stay small.
_TEXT_KEPT = 4 * MAX_CELL_CHARS

# The tags _Splitter.handle_starttag and handle_endtag act on (a start tag inside an <a> may close it, see
# _BLOCK_LEVEL): the scanner calls them for these only.
_STARTS_HEARD = frozenset({"br", "a", "li", "p"} | _HEADINGS)
_ENDS_HEARD = frozenset({"a", "li", "ul", "ol"} | _HEADINGS)

# Notes (list items) kept per section: AWR prints a handful.
MAX_NOTES = 200

# Tables a report may hold: TABLES_FREE plus one per TABLE_CHARS characters (a placed table costs ~400 bytes
# of objects; AWR's tables are longer than 200 characters), and how deep they may nest.
TABLES_FREE, TABLE_CHARS = 10_000, 256
MAX_TABLE_DEPTH = 64


def _keep(parts: list[str], data: str) -> None:
    """Append a text piece to ``parts``, keeping about _TEXT_KEPT characters of their concatenation."""
    if len(data) > _TEXT_KEPT:
        data = data.lstrip()[:_TEXT_KEPT]
    parts.append(data)
    if len(parts) > 64:
        parts[:] = ["".join(parts)[:_TEXT_KEPT]]

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
        self.low = _ascii_lower(text)
        self.splitter = splitter
        self.lines = _Lines(text)
        self.ahead = [-2] * len(_TABLE_EVENTS)  # next position of each of _TABLE_EVENTS (-1: none left)
        self.tables_left = TABLES_FREE + len(text) // TABLE_CHARS
        self.too_deep = False
        # the compiled event finder reads one-byte texts (it answers -2 for the others)
        self.next_event = _compiled_next_event if _compiled_next_event is not None and \
            _compiled_next_event(self.low, len(self.low)) != -2 else self._next_table_event

    def run(self) -> None:
        text, sp = self.text, self.splitter
        sp.lines = self.lines
        search = _TAG.search
        data = sp._data
        pos, n = 0, len(text)
        ends_heard, starts_heard = _ENDS_HEARD, _STARTS_HEARD
        while pos < n:
            m = search(text, pos)
            if m is None:
                self._data(text[pos:])
                return
            start, end = m.span()
            if start > pos:
                raw = text[pos:start]
                # blank text between tags counts only inside a heading or a note (it separates their words)
                if sp._heading is not None or sp._note is not None or not raw.isspace():
                    data(_decoded(raw))
            closing, name, attrs, comment = m.groups()
            if name is None:
                pos = self._skip_comment(end) if comment else end
                continue
            tag = name.lower()
            if closing:  # end tag
                if tag == "a":  # the commonest tag, as handle_endtag closes it
                    if sp._in_anchor:
                        sp._in_anchor -= 1
                elif tag in ends_heard:
                    sp.handle_endtag(tag)
                pos = end
                continue
            sp.tag_pos = end - 1
            sp.tag_line = None
            if tag == "a":  # as handle_starttag opens it ('a' is no block element: an open one stays)
                sp._in_anchor += 1
                if attrs.endswith("/"):
                    sp._in_anchor -= 1
                pos = end
            elif tag == "p":  # as handle_starttag: a block element closes an open <a>, and breaks loose text
                sp._in_anchor = 0
                if sp._loose:
                    _keep(sp._loose, "\n")
                pos = end
            elif tag == "table":
                sp.tag_line = self.lines.at(sp.tag_pos)  # counted now: the table's scan moves the count past it
                sp.handle_starttag(tag)
                pos = self._table(m)
            elif tag in _RAW_TEXT:
                pos = self._skip_raw_text(tag, end)
            else:
                if tag in starts_heard or sp._in_anchor:
                    sp.handle_starttag(tag)
                if attrs.endswith("/") and tag in ends_heard:  # <x/>: an empty element
                    sp.handle_endtag(tag)
                pos = end

    def _data(self, raw: str) -> None:
        self.splitter._data(_decoded(raw))

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
        next_event = self.next_event
        while stack:
            pos = next_event(low, pos)
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
                if tag == "table" and len(stack) >= MAX_TABLE_DEPTH:  # read as the outer table's text
                    if not self.too_deep:
                        self.too_deep = True
                        self.splitter.issue("warning", self.lines.at(pos), f"tables nest more than "
                                            f"{MAX_TABLE_DEPTH} deep: the deeper <table> tags are not read")
                    pos = m.end()
                elif tag == "table":
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

    def _next_table_event(self, low: str, pos: int) -> int:
        """Position of the next ``<table``, ``</table``, ``<!--``, ``<script`` or
        ``<style`` at or after ``pos`` (-1: none). Each needle's next position is
        kept, so every needle scans the text once."""
        best = -1
        ahead = self.ahead
        for k, needle in enumerate(_TABLE_EVENTS):
            at = ahead[k]
            if at < pos and at != -1:
                at = ahead[k] = low.find(needle, pos)
            if at >= 0 and (best < 0 or at < best):
                best = at
        return best

    def _close(self, table: "_OpenTable", stack: list["_OpenTable"]) -> None:
        """A nested table goes with its outer table, after it, in the order the
        tables close; a top-level table is placed now. Past the report's table
        bound a table is dropped (said once)."""
        self.tables_left -= 1
        if self.tables_left < 0:
            if self.tables_left == -1:
                self.splitter.issue("warning", table.line, "the report holds more tables than its size explains: "
                                    "the tables from here on are not read")
            return
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

# _Scanner._next_table_event in one pass, compiled (html/_cut.c), unless turned off (AWRSCOPE_PURE_PYTHON=1: what
# a machine without a C compiler runs; tests/test_compiled_core.py compares the two)
try:
    if os.environ.get("AWRSCOPE_PURE_PYTHON", "") == "1":
        raise ImportError
    from ._cut import next_table_event as _compiled_next_event
except ImportError:
    _compiled_next_event = None

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _ascii_lower(text: str) -> str:
    """The text with ASCII letters in lower case, same length: tag names are ASCII. One accented letter
    makes str.lower() 14x slower (4 ms a MB); a text of Latin-1 characters goes through bytes.lower()."""
    if text.isascii():
        return text.lower()
    try:
        return text.encode("latin-1").lower().decode("latin-1")
    except UnicodeEncodeError:  # characters past Latin-1
        low = text.lower()
        return low if len(low) == len(text) else text.translate(_ASCII_LOWER)

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
