"""Replacing identifiers in the raw text of a report, text or HTML, keeping its layout.

Outside SQL text, a word (a run of letters, digits, '_', '$', '#') is replaced only when it is one of the
report's identifier words; IP addresses and DBIDs are replaced as whole strings. Inside SQL text (the SQL
lines of the text report's SQL sections, the 'SQL Text' column of an HTML table) every word that is not a
keyword, an Oracle name or shorter than 3 characters is replaced, and so are literals ('...' strings and
numbers). In HTML, text nodes and the href/name/id/title values are read unescaped and written escaped."""
from __future__ import annotations

import html
import re
from collections.abc import Callable

from .match import Matcher
from .vocab import SQL_KEYWORDS, SQL_STARTS, WORD, oracle_name
from .. import patterns

_SQL_TOKEN = patterns.compile(r"(?P<lit>'(?:[^']|'')*('|$))|(?P<bind>:[A-Za-z0-9_][A-Za-z0-9_$#]*)|(?P<qid>\"[^\"\n]*\")"
                              r"|(?P<num>(?<![\w$#.])\d+(?:\.\d+)?(?![\w$#]))"
                              r"|(?P<word>(?<![A-Za-z0-9_$#])[A-Za-z0-9_$#]*[A-Za-z_$#][A-Za-z0-9_$#]*)")
_TEXT_SQL_TITLE = patterns.compile(r"^(SQL ordered by|Complete List of SQL Text|Top SQL with Top|Top SQL using literals|"
                                   r"SQL Statistics|Top SQL Statements\s+DB/Inst|Top (?:\d+ )?SQL Comparison by)")
_HEADER_DASHES = patterns.compile(r"^-{3,}[ -]*$")
_END_DASHES = patterns.compile(r"^\s{4,}-{20,}\s*$")
_FIGURE = patterns.compile(r"(?<![\w.])(\d{1,3}(,\d{3})+|\d+\.\d+)(?![\w])")
_DATA_TOKEN = patterns.compile(r"^([\d.,%-]+|N/A|[0-9a-z]{13})$")
_SYSTEM_BIND = patterns.compile(r"^:(\d+|B\d+|SYS_B_\d+)$")  # positional, PL/SQL and cursor-sharing binds
_WR_WORD = patterns.compile(r"(?<![\w$#])(?:WR[HMI]\$_[A-Za-z0-9_$#]*|\d{4,}_\d+(?![\w$#]))")
_ROW_START = patterns.compile(r"^\s+[\d,]+(?:\.\d+)?\s+[\d,]+(?:\.\d+)?\s")  # two figures: a row of a SQL table
_ADDM_SQL = patterns.compile(r"\bSQL statement with SQL_ID \S+\s*$")
_NOT_SQL_PREFIX = ("Module:", "Action:", "PDB:", "Container:", "->", "**")


class Engine:
    def __init__(self, words: dict[str, str], phrases: dict[str, str], sql_word: Callable[[str], str] | None,
                 sql_literal: Callable[[str], str], matcher: Matcher | None = None,
                 pseudo: Callable[[str], str] | None = None):
        self.words = words
        self.matcher = matcher
        self.pseudo = pseudo
        self.phrases = phrases
        self.sql_word = sql_word  # None: SQL text is kept (--keep sql-text)
        self.sql_literal = sql_literal
        self.sql_words: dict[str, str] = {}
        self.literals: dict[str, str] = {}
        alts = sorted(phrases, key=len, reverse=True)
        # an IPv4 address stands next to ':' (10.17.2.1:10.17.2.2, host:port); an IPv6 one is made of ':'.
        # Made of the report's names: re.compile, never awrscope.patterns (whose cache file outlives the run)
        self._phrase_rx = re.compile("|".join(rf"(?<!\d){re.escape(p)}(?!\d)" if p.isdigit()
                                              else rf"(?<![\w.]){re.escape(p)}(?![\w]|\.\d)" if "." in p
                                              else rf"(?<![\w.:]){re.escape(p)}(?![\w:]|\.\d)"
                                              for p in alts)) if alts else None

    # ---- plain text -------------------------------------------------------------------------------------
    def plain(self, s: str) -> str:
        if self._phrase_rx is not None:
            if "_" in s:
                s = _WR_WORD.sub(self._wr_digits, s)
            s = self._phrase_rx.sub(lambda m: self.phrases[m.group(0)], s)
        return WORD.sub(lambda m: self._ident(m.group(0)), s)

    def _wr_digits(self, m: re.Match) -> str:
        """An AWR repository name (WRH$_ACTIVE_<dbid>_<n>) cut to its column: the DBID's first or last digits
        in it are the pseudonym's first or last digits."""
        def group(g: re.Match) -> str:
            d = g.group(0)
            for full, pseudo in self.phrases.items():
                if full.isdigit() and len(full) > len(d):
                    if full.startswith(d):
                        return pseudo[:len(d)]
                    if full.endswith(d):
                        return pseudo[-len(d):]
            return d
        return re.sub(r"(?<=_)\d{4,}|^\d{4,}", group, m.group(0))

    def _ident(self, w: str) -> str:
        """A word outside SQL text: replaced whole when it is an identifier word, else the names found in it."""
        if w in self.words:
            return self.words[w]
        if self.matcher is None:
            return w
        return self.matcher.replace(w, self.pseudo)

    def sql(self, s: str, in_literal: bool = False) -> tuple[str, bool]:
        """One piece of SQL text; ``in_literal``: it starts inside a '...' string opened on the line before."""
        if self.sql_word is None:
            return self.plain(s), False
        out = []
        pos = 0
        if in_literal:
            end = s.find("'")
            body = s if end < 0 else s[:end]
            out.append(self._lit(body))
            if end < 0:
                return "".join(out), True
            pos = end
            out.append("'")
            pos += 1
        still_open = False
        for m in _SQL_TOKEN.finditer(s, pos):
            out.append(self.plain(s[pos:m.start()]))
            pos = m.end()
            g = m.lastgroup
            tok = m.group(0)
            if g == "lit":
                closed = len(tok) > 1 and tok.endswith("'")
                inner = tok[1:-1] if closed else tok[1:]
                out.append("'" + self._lit(inner) + ("'" if closed else ""))
                still_open = not closed
            elif g == "num":
                out.append(self._lit(tok))
            elif g == "word":
                out.append(self._word(tok))
            elif g == "bind":
                out.append(tok if _SYSTEM_BIND.match(tok) else ":" + self._word(tok[1:]))
            elif g == "qid":
                out.append('"' + WORD.sub(lambda w: self._word(w.group(0)), tok[1:-1]) + '"')
            else:
                out.append(tok)
        out.append(self.plain(s[pos:]))
        return "".join(out), still_open

    def _word(self, w: str) -> str:
        if w in self.words:
            return self.words[w]
        if (len(w) < 3 or _SYSTEM_BIND.match(":" + w) or w.upper() in SQL_KEYWORDS or oracle_name(w)
                or not any(c.isalpha() for c in w)):
            return self._ident(w)  # kept as SQL, but a name inside it still goes (SYS_BPSC_IDX)
        p = self.sql_word(w)
        if p == w:
            return self._ident(w)  # a word of Oracle's kept in SQL text: still not a name the report introduced
        self.sql_words[w] = p
        return p

    def _lit(self, s: str) -> str:
        if not s.strip() or not re.search(r"[A-Za-z0-9]", s):
            return s
        p = self.sql_literal(s)
        self.literals[s] = p
        return p

    # ---- text reports -----------------------------------------------------------------------------------
    def text(self, text: str) -> str:
        out = []
        region = False  # inside a SQL section
        body = False  # past its column headings
        in_lit = False
        prev_sql = False  # the line before was SQL text: a line that goes on with it is too ('1,200)' in it or not)
        addm_sql = False  # the SQL text ADDM prints under 'SQL statement with SQL_ID x.', as indented as it
        addm_indent = 0
        for line in text.splitlines(keepends=True):
            content = line.rstrip("\r\n")
            eol = line[len(content):]
            if (addm_sql and content.strip() and self.sql_word is not None
                    and len(content) - len(content.lstrip()) >= addm_indent):
                red, in_lit = self.sql(content, in_lit)
                out.append(red + eol)
                continue
            if addm_sql:  # a blank line or one indented less ('   Rationale'): the SQL text ended
                addm_sql = in_lit = False
            if _ADDM_SQL.search(content):
                addm_sql, in_lit = True, False
                addm_indent = len(content) - len(content.lstrip())
                out.append(self.plain(content) + eol)
                continue
            if _TEXT_SQL_TITLE.match(content):
                region, body, in_lit = True, False, False
                out.append(self.plain(content) + eol)
                continue
            if region and _END_DASHES.match(content):
                region = body = in_lit = False
            elif region and _HEADER_DASHES.match(content):
                body, in_lit = True, False
            elif region and body and ((in_lit or prev_sql) and self._continues_sql(content)
                                      or self._is_sql_line(content)):
                red, in_lit = self.sql(content, in_lit)
                out.append(red + eol)
                prev_sql = True
                continue
            else:
                in_lit = False
            prev_sql = False
            out.append(self.plain(content) + eol)
        return "".join(out)

    @staticmethod
    def _continues_sql(s: str) -> bool:
        """A line going on with the SQL text above it (a literal or a statement cut to the column width): not
        blank, not a 'Module:' line, not a row of figures (a literal left open by a cut line ends there)."""
        st = s.strip()
        return (bool(st) and not st.startswith(_NOT_SQL_PREFIX) and not all(_DATA_TOKEN.match(t) for t in st.split())
                and not (s[:1] == " " and _ROW_START.match(s)))

    @staticmethod
    def _is_sql_line(s: str) -> bool:
        st = s.strip()
        if not st or st.startswith(_NOT_SQL_PREFIX):
            return False
        if SQL_STARTS.match(st):
            return True
        # a figure inside a literal ('01.03.2004') is SQL text's, not a row of figures
        if _FIGURE.search(re.sub(r"'[^']*'?", "''", s)):
            return False
        toks = st.split()
        return not all(_DATA_TOKEN.match(t) for t in toks)

    # ---- HTML reports -----------------------------------------------------------------------------------
    _TAG = patterns.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>|</?[A-Za-z!][^>]*>", re.DOTALL | re.IGNORECASE)  # '(< 2%' is text
    # quoted or not: 12.2's Exadata tables write <A name=OS_IO_CELL_TOP_F_2.9T<cell name>>
    _ATTR = patterns.compile(r"""(\s(?:href|name|id|title|alt)\s*=\s*)(?:(["'])(.*?)\2|([^\s>"']+))""",
                             re.DOTALL | re.IGNORECASE)

    def html(self, text: str) -> str:
        out = []
        pos = 0
        headers: list[str] = []  # the last heading row's cells (a two-row heading: its second row)
        row_ths: list[str] = []
        row_data = False  # the current row has a data cell with text
        th: list[str] | None = None
        col = -1
        in_td = False
        for m in self._TAG.finditer(text):
            chunk = text[pos:m.start()]
            if chunk:
                if th is not None:
                    th.append(html.unescape(chunk))
                    out.append(self._html_text(chunk, False))
                else:
                    is_sql = in_td and 0 <= col < len(headers) and headers[col] == "SQL Text"
                    if in_td and chunk.replace("&nbsp;", "").strip():
                        row_data = True
                    out.append(self._html_text(chunk, is_sql))
            tag = m.group(0)
            low = tag[:6].lower()
            if low.startswith(("<tr", "<table", "</tabl")) and row_ths and not row_data:
                headers = row_ths  # the row before was a heading row
            if low.startswith("<table"):
                headers, col, row_ths, row_data = [], -1, [], False
            elif low.startswith("<th") and not low.startswith("<thead"):
                th = []
            elif low.startswith("</th"):
                row_ths.append(" ".join("".join(th or []).split()))
                th = None
            elif low.startswith("<tr"):
                col, in_td, row_ths, row_data = -1, False, [], False
            elif low.startswith("<td"):
                col, in_td = col + 1, True
            elif low.startswith("</td"):
                in_td = False
            out.append(self._tag(tag))
            pos = m.end()
        out.append(self._html_text(text[pos:], False))
        return "".join(out)

    def _html_text(self, raw: str, is_sql: bool) -> str:
        plain = html.unescape(raw)
        red = self.sql(plain)[0] if is_sql else self.plain(plain)
        return raw if red == plain else _escape(red)

    def _tag(self, tag: str) -> str:
        if tag.startswith(("<!--", "<script", "<style", "<SCRIPT", "<STYLE")):
            return self.plain(tag)  # identifiers only: the words of a script or comment are not parsed

        def attr(m: re.Match) -> str:
            quote = m.group(2) or ""
            raw = m.group(3) if m.group(2) else m.group(4)
            plain = html.unescape(raw)
            red = self.plain(plain)
            return m.group(0) if red == plain else m.group(1) + quote + _escape(red, True) + quote
        return self._ATTR.sub(attr, tag)


def _escape(s: str, quote: bool = False) -> str:
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\xa0", "&nbsp;")
    return s.replace('"', "&quot;").replace("'", "&#39;") if quote else s
