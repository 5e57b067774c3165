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

from ....errors import NotAReportError
from ....model import ParseIssue
from ..raw import HTML_HEADER_TITLE as HEADER_TITLE
from ..raw import Block
from .cells import MAX_CELL_CHARS, clean_cell
from .scanner import _Scanner, _Splitter

__all__ = ["blocks_from_html", "clean_cell", "HEADER_TITLE", "MAX_CELL_CHARS"]


_WRAP_MIN_WIDTH = 200

_WRAP_MIN_LINES = 20

def _hard_wrap_width(text: str) -> int | None:
    """The width at which a tool or a mailer cut every line of the report
    (lines of exactly that many characters, none longer), else None. A first
    look at the head keeps unwrapped reports from paying a full count."""
    head = list(map(len, text[:200_000].split("\n")[:-1]))
    width = max(head, default=0)
    if width < _WRAP_MIN_WIDTH or head.count(width) < 5:
        return None
    lengths = list(map(len, text.split("\n")[:-1]))
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
