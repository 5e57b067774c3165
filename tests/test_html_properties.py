"""Property tests of the HTML table grammar: the forward scanner (parsers/report/html/)
against an independent reader built on the standard library's ``html.parser``.

Hypothesis writes AWR-shaped documents (headings, then tables of <th> header
rows and <td> data rows) in the ways real reports and the tools that touched
them write them: tag names in any case, attributes quoted or not and holding
``>``, end tags left out, newlines inside tags and cells, entities, links,
``<b>`` and ``<br>`` inside cells, comments between rows, ``<tbody>``,
colspans in stacked headers. Both readers must find the same titles, column
names, cells and row lines, whichever way (columns first or rows first) the
lazy table is read."""
from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from awrscope.parsers.report.html import blocks_from_html, clean_cell

_WORD = st.text(alphabet="abcdefghij XYZ_/:()%#é中", min_size=1, max_size=12).filter(lambda s: s.strip())
_NUMBER = st.one_of(st.integers(0, 10**9).map(lambda v: f"{v:,}"),
                    st.floats(0, 1e6, allow_nan=False).map(lambda v: f"{v:.2f}"))
_ENTITY = st.sampled_from(["&amp;", "&lt;", "&gt;", "&nbsp;", "&#160;", "&quot;", "&#x41;"])


@st.composite
def _cell_body(draw, plain: bool) -> str:
    """A cell's inner HTML: words, numbers and entities; unless plain, sometimes in a link or <b>,
    with <br> or newlines."""
    parts = draw(st.lists(st.one_of(_WORD, _NUMBER, _ENTITY), min_size=0, max_size=4))
    sep = " " if plain else draw(st.sampled_from([" ", "\n", " <br> ", "<br/>", "  "]))
    body = sep.join(parts)
    wrap = "" if plain else draw(st.sampled_from(["", "", "", "a", "b", "span"]))
    if wrap == "a":
        body = f'<a class="awr" href="#{draw(st.sampled_from(["x", "9abc"]))}">{body}</a>'
    elif wrap:
        body = f"<{wrap}>{body}</{wrap}>"
    return body


_ATTRS = [' class="awrc"', " class='awrnc'", " align=right", ' scope="col"', "\nclass=awrbg", ' nowrap']


@st.composite
def _tag(draw, name: str, plain: bool = False) -> str:
    """A start tag as a report or an editor may write it; unless plain, with attribute values holding < or >."""
    name = draw(st.sampled_from([name, name.upper(), name.capitalize()]))
    attrs = draw(st.lists(st.sampled_from(_ATTRS if plain else _ATTRS + [' id=">=512us"', " id='<8us'"]),
                          max_size=2))
    return f"<{name}{''.join(attrs)}>"


@st.composite
def _table(draw) -> tuple[str, list[str], list[list[str]]]:
    """(html, expected column names, expected data rows) of one table; the
    expectations come from the reference reader, not from this generator."""
    width = draw(st.integers(1, 10))
    end_cells = draw(st.booleans())  # write </td> and </th>
    end_rows = draw(st.booleans())  # write </tr>
    plain = draw(st.booleans())  # cells of text only, no colspans (most AWR tables)
    out = [draw(_tag("table")), draw(st.sampled_from(["", "\n", "<tbody>"]))]

    def row(kind: str, cells: list[tuple[str, int]], implied: bool = False) -> str:
        # implied: no <tr> before the first cell (libxml2 opens the row); that cell's tag on one line
        s = ["\n", "" if implied else draw(st.sampled_from(["<tr>", "<TR>", "<tr class='awr'>"]))]
        for k, (body, span) in enumerate(cells):
            start = draw(_tag(kind, plain))
            if implied and k == 0:
                start = start.replace("\n", " ")
            if span != 1:
                start = start[:-1] + f" colspan={draw(st.sampled_from([str(span), repr(str(span))]))}>"
            s.append(start + body + (f"</{kind}>" if end_cells else "") + draw(st.sampled_from(["", "", "\n"])))
        if end_rows:
            s.append("</tr>")
        return "".join(s)

    implied = draw(st.integers(0, 4)) == 0
    if draw(st.booleans()):  # a group header row above the column names
        groups, left = [], width
        while left:
            span = draw(st.integers(1, left))
            groups.append((draw(_WORD), span))
            left -= span
        out.append(row("th", groups, implied))
        implied = False
    out.append(row("th", [(draw(_WORD), 1) for _ in range(width)], implied))
    for _ in range(draw(st.integers(0, 6))):
        if not plain and draw(st.integers(0, 5)) == 0:
            out.append("\n<!-- a comment <td>not a cell</td> -->")
        out.append(row("td", [(draw(_cell_body(plain)), 1 if plain else draw(st.sampled_from([1, 1, 1, 2, 3])))
                              for _ in range(width)]))
    out.append(draw(st.sampled_from(["</table>", "\n</TABLE>", "</tbody></table>"])))
    return "".join(out)


@st.composite
def _document(draw) -> str:
    parts = ["<html><head><title>AWR Report</title></head><body class='awr'>\n",
             "<h1 class='awr'>WORKLOAD REPOSITORY report for</h1>\n",
             "<table><tr><th>DB Name</th><th>DB Id</th></tr><tr><td>ORCL</td><td>123</td></tr></table>\n"]
    for k in range(draw(st.integers(1, 4))):
        heading = draw(st.sampled_from(["h2", "h3", "H3"]))
        parts.append(f"<{heading} class=\"awr\">Section {k} {draw(_WORD)}</{heading}>\n")
        if draw(st.booleans()):
            parts.append("<ul><li class='awr'>a note</li></ul>\n")
        parts.append(draw(_table()) + "\n<br />\n")
    parts.append("</body></html>\n")
    return "".join(parts)


class _Reference(HTMLParser):
    """Titles and tables the plain way: every tag through the standard library's tokenizer."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.titles: list[str] = []
        self.tables: list[tuple[list[list[tuple[str, int]]], list[tuple[int, list[str]]]]] = []
        self._heading: list[str] | None = None
        self._in_table = False
        self._row: list[tuple[str, int, bool]] | None = None  # (text, colspan, is th)
        self._row_line = 0
        self._cell: list[str] | None = None
        self._cell_span = 1
        self._cell_th = False

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3"):
            self._heading = []
        elif tag == "table":
            self._in_table = True
            self.tables.append(([], []))
        elif not self._in_table:
            return
        elif tag == "tr":
            self._end_row()
            self._row, self._row_line = [], self.getpos()[0]
        elif tag in ("td", "th"):
            self._end_cell()
            if self._row is None:  # a cell outside a row opens one
                self._row, self._row_line = [], self.getpos()[0]
            self._cell, self._cell_th = [], tag == "th"
            span = dict(attrs).get("colspan") or "1"
            self._cell_span = max(1, min(int(span.strip("'\"") or 1), 64))
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_startendtag(self, tag, attrs):
        if tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag):
        if tag in ("h2", "h3") and self._heading is not None:
            self.titles.append(clean_cell("".join(self._heading)))
            self._heading = None
        elif tag == "table":
            self._end_row()
            self._in_table = False
        elif tag in ("td", "th"):
            self._end_cell()
        elif tag == "tr":
            self._end_row()

    def handle_data(self, data):
        if self._heading is not None:
            self._heading.append(data)
        elif self._cell is not None:
            self._cell.append(data)

    def _end_cell(self):
        if self._cell is not None:
            self._row.append((clean_cell("".join(self._cell)), self._cell_span, self._cell_th))
            self._cell = None

    def _end_row(self):
        self._end_cell()
        if not self._row:
            self._row = None
            return
        header_rows, rows = self.tables[-1]
        has_th = any(th for _, _, th in self._row)
        blank_tds = all(th or not text for text, _, th in self._row)
        if has_th and blank_tds and not rows:
            header_rows.append([(text, span) for text, span, _ in self._row])
        else:
            flat = []
            for text, span, _ in self._row:
                flat += [text] + [""] * (span - 1)
            rows.append((self._row_line, flat))
        self._row = None


def _columns(header_rows: list[list[tuple[str, int]]]) -> list[str]:
    """Stacked header names: each row's cells repeated over their colspan, joined per column."""
    grids = [[text for text, span in cells for _ in range(span)] for cells in header_rows]
    width = max((len(g) for g in grids), default=0)
    return [" ".join(g[k] for g in grids if k < len(g) and g[k]) for k in range(width)]


@settings(max_examples=300, deadline=None)
@given(_document(), st.booleans())
def test_scanner_reads_tables_as_the_standard_tokenizer_does(doc, columns_first):
    ref = _Reference()
    ref.feed(doc)
    ref.close()
    _, _, blocks, issues = blocks_from_html(doc)
    header, sections = blocks[0], blocks[1:]
    assert [b.title for b in sections] == ref.titles
    assert len(header.tables) == 1 and sum(len(b.tables) for b in sections) == len(ref.tables) - 1
    for block, (header_rows, rows) in zip(sections, ref.tables[1:]):
        (table,) = block.tables
        if columns_first:  # the header-only look, then the whole table
            assert table.columns == _columns(header_rows)
            assert table.rows == rows
        else:
            assert table.rows == rows
            assert table.columns == _columns(header_rows)
    assert not [i for i in issues if i.level != "info"]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.floats(allow_nan=False), st.integers()))
def test_fast_cell_escape_equals_markupsafe(value):
    """Section-table cells are escaped by a plain-str function (issue 20: a Markup object per cell cost as much
    as the rest of the page): it must give markupsafe's bytes for any cell."""
    from markupsafe import escape

    from awrscope.render.html.views import _esc

    assert _esc(value) == str(escape(value))


_CELL_VALUE = st.one_of(st.none(), st.floats(), st.sampled_from([0.0, -0.0, 3.0, 1e6, 123.45, 0.001]),
                        st.integers(-10**7, 10**7), st.sampled_from([0, 3]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=8), st.dictionaries(st.sampled_from(["a", "b", "c"]), _CELL_VALUE),
                          st.dictionaries(st.sampled_from(["t"]), st.text(max_size=6)),
                          st.sampled_from([None, "temp", "undo"]), st.booleans()), min_size=1, max_size=6),
       st.booleans())
def test_section_rows_drawn_as_the_formatter_and_markupsafe_would(rows, cold):
    """rows_html caches whole numeric cells by value and takes a two-map() way for tables of floats: every cell
    must still be fmt_num's text, markupsafe-escaped, with the value's own spelling in data-v, whatever the mix
    of floats, ints (3 is not 3.0 on the page), zeros of either sign and missing values, cache warm or cold;
    and each row keeps its own id (a cited row) and class (TEMP/UNDO)."""
    from markupsafe import escape

    from awrscope.model import Row
    from awrscope.render.html import views
    from awrscope.render.numbers import fmt_num

    if cold:
        views._FLOAT_TD.clear()
        views._INT_TD.clear()
        views._FLOAT_TD[None] = views._EMPTY_NUM_TD
    text_keys = sorted({k for _, _, text, _, _ in rows for k in text})
    cols = ([{"key": "name", "num": False}] + [{"key": k, "num": False} for k in text_keys]
            + [{"key": k, "num": True} for k in ("a", "b", "c")] + [{"key": "line", "num": True}])
    table = {"columns": cols, "rows": [Row(name or None, n + 1, values, text) for n, (name, values, text, _, _)
                                       in enumerate(rows)],
             "kinds": {n: kind for n, (_, _, _, kind, _) in enumerate(rows) if kind},
             "anchors": {n: f"s-L{n + 1}" for n, (_, _, _, _, cited) in enumerate(rows) if cited}}

    def cell(c, row):
        if c["key"] == "name":
            return f"<td>{escape(row.name or '')}</td>"
        if c["key"] == "line":
            return f'<td class="n" data-v="{row.line}">{row.line}</td>'
        if c["num"]:
            v = row.values.get(c["key"])
            return '<td class="n" data-v=""></td>' if v is None else f'<td class="n" data-v="{v}">{escape(fmt_num(v))}</td>'
        return f"<td>{escape(row.text.get(c['key'], ''))}</td>"

    def attrs(n):
        return ((f' id="p-s-L{n + 1}"' if n in table["anchors"] else "")
                + (f' class="hl {table["kinds"][n]}"' if n in table["kinds"] else ""))

    expected = "".join(f"<tr{attrs(n)}>{''.join(cell(c, row) for c in cols)}</tr>\n"
                       for n, row in enumerate(table["rows"]))
    assert str(views.rows_html(table, "p-")) == expected
    assert str(views.rows_html(table, "p-")) == expected  # and again, from a warm cache
