"""The self-check that does not share the redactor's blind spots: it reads the *output* on its own, finds its
identifier positions (the cells of identifier columns of HTML tables, the rows the parser reads of identifier
sections, identifier parameters' values, the rows of text sections of names) and its SQL text, and lists every
word standing there that is neither in the vocabulary nor a pseudonym. It never looks at what the redactor
collected: a name the collector missed is found because it is a word no one vouched for.

docs/redact.md, "The self-check".
"""
from __future__ import annotations

import html
import re

from .. import patterns
from .vocab import ORACLE_SCHEMAS, WORD, known

# HTML column headings whose cells are names a site chooses (lower case, single spaces)
IDENT_HEADINGS = frozenset({
    "db name", "instance", "inst name", "instance name", "container name", "pdb name", "db unique name",
    "unique name", "host", "host name", "machine", "service name", "service", "user", "user name", "username",
    "owner", "schema", "schema name", "parsing schema name", "apply name", "replicat name", "capture name",
    "extract name", "propagation name", "streams name", "queue name", "object name", "subobject name",
    "object name (type)", "module", "sql module", "session module", "program", "action", "client id",
    "plsql entry subprogram", "plsql current subprogram", "pl/sql entry subprogram", "pl/sql current subprogram",
    "tablespace", "tablespace name", "filename", "file name", "cell name", "disk name", "path", "failgroup",
    "disk group", "diskgroup", "ip address", "sql text",
})
_SQL_TITLE = patterns.compile(r"^(SQL ordered by|Complete List of SQL Text|Top SQL with Top|Top SQL using literals|"
                              r"SQL Statistics|Top SQL Statements|Top (?:\d+ )?SQL Comparison by)")
_NAME_TITLE = patterns.compile(r"^(Top DB Objects|Top PL/SQL|Top Sessions|Top Blocking Sessions|Top Service/Module|"
                               r"Top Client IDs|Top DB Files|Top Java Workload|Top Cell|Exadata Cell|Cell Server|ASM Disk)")
_TITLE_LINE = patterns.compile(r"^\S.*\s(DB/Inst:|DB:)\s|^(Segments by|Tablespace IO|File IO|Instance Activity|Wait Events|"
                               r"Background Wait|Latch|Enqueue|Buffer|Time Model|Operating System|Undo|init\.ora|"
                               r"Dictionary Cache|Library Cache|SGA|PGA|Memory|Resource Limit|Shared Pool|Process Memory)")
_SYSTEM_BINDS = patterns.compile(r":(?:\d+|B\d+|SYS_B_\d+)\b")  # positional, PL/SQL and cursor-sharing binds
_DASHES = patterns.compile(r"^\s*-{3,}[ -]*$")
_FIGURE_TOKEN = patterns.compile(r"(?<!\S)[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?\.?\d+(?!\S)")

_END_DASHES = patterns.compile(r"^\s{4,}-{20,}\s*$")
_PARAM = patterns.compile(r"^(db_name|db_unique_name|instance_name|service_names|db_domain|.*_dest(_\d+)?|control_files|"
                          r"spfile|local_listener|remote_listener|dispatchers|log_archive_config|fal_server|fal_client|"
                          r"log_archive_format|asm_diskstring|asm_diskgroups|.*file_name_convert|utl_file_dir)$", re.I)
_IDENT_SECTION = patterns.compile(r"^(segments_by_|tablespace_io|file_io|sql_|ash_top_)")
_IDENT_FIELDS = ("object_name", "subobject_name", "name_subobject_name", "tablespace_name", "tablespace", "module",
                 "action", "program", "service", "user", "pdb_name")


def unknown_tokens(text: str, fmt: str, allowed: set[str] | frozenset[str], sql: bool = True
                   ) -> list[tuple[str, str]]:
    """(position, word) for each word of an identifier position or of SQL text of ``text`` (the redacted
    report) that is neither in the vocabulary nor in ``allowed`` (upper-cased: the report's labels and the
    run's pseudonyms). ``sql``: SQL text is read too (not when it is shared as printed, --keep sql-text)."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    read_sql = sql

    def look(position: str, s: str, sql: bool = False) -> None:
        if sql and not read_sql:
            return
        if sql:
            s = _SYSTEM_BINDS.sub(" ", s)
        for w in WORD.findall(s):
            if w not in seen and not known(w, allowed) and not (sql and _sql_noise(w)):
                seen.add(w)
                out.append((position, w))

    if fmt == "html":
        for heading, cell in _cells(text):
            look(f"column '{heading}'", cell, heading in ("sql text", "sql module", "module", "action"))
        for name, value in _html_parameters(text):
            look(f"parameter {name}", value)
    else:
        for title, line, sql in _text_positions(text):
            look(f"{'SQL text' if sql else 'rows'} of '{title}'", line, sql)
    for position, value in _parsed(text):
        look(position, value)
    return out


_FIGURE_WORD = patterns.compile(r"\d[\d.]*(?:E[+-]?\d*|[KMGTP]|us|ms|s)?")


def _sql_noise(w: str) -> bool:
    # a figure printed beside SQL text (1.2E+06, 72us): nothing else is let through
    return _FIGURE_WORD.fullmatch(w) is not None


def _plain(s: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", s)).replace("\xa0", " ").split())


def _cells(text: str):
    """(heading, cell text) of every identifier column of the HTML tables whose heading row has no merged cell."""
    low = text.lower()
    pos = 0
    while True:
        start = low.find("<table", pos)
        if start < 0:
            return
        end = low.find("</table", start)
        if end < 0:
            end = len(text)
        table = text[start:end]
        pos = end + 1
        heads: list[str] | None = None
        for row in re.split(r"<tr\b", table, flags=re.I)[1:]:
            ths = re.findall(r"<th\b([^>]*)>(.*?)(?=<t[hd]\b|</tr|$)", row, re.S | re.I)
            tds = re.findall(r"<td\b[^>]*>(.*?)(?=<t[hd]\b|</tr|$)", row, re.S | re.I)
            if ths and not tds:
                heads = None if any("colspan" in a.lower() for a, _ in ths) else [_plain(h).lower() for _, h in ths]
            elif heads and len(tds) == len(heads):
                for h, c in zip(heads, tds):
                    if h in IDENT_HEADINGS:
                        yield h, _plain(c)


def _html_parameters(text: str):
    for m in re.finditer(r"<tr\b[^>]*>\s*<td\b[^>]*>\s*([a-z_0-9]+)\s*</td>(.*?)</tr>", text, re.S | re.I):
        if _PARAM.match(m.group(1)):
            yield m.group(1), _plain(m.group(2))


def _text_positions(text: str):
    """(section title, line, is SQL) for the rows of the text report's SQL sections and sections of names, past
    their column headings; notes ('->') and heading lines (those above a dashed rule) are Oracle's."""
    lines = text.splitlines()
    title = None
    sql = False
    body = False
    for i, line in enumerate(lines):
        if _SQL_TITLE.match(line) or _NAME_TITLE.match(line):
            title, sql, body = line.split("  ")[0].strip(), bool(_SQL_TITLE.match(line)), False
            continue
        if title is None:
            continue
        if _END_DASHES.match(line) and body or (line[:1].strip() and _TITLE_LINE.match(line)):
            title = None
            continue
        if _DASHES.match(line):
            body = True
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if not body or not line.strip() or line.lstrip().startswith(("->", "-")) or _DASHES.match(nxt):
            continue
        if sql and len(_FIGURE_TOKEN.findall(line)) >= 2:
            continue  # a row of the table (figures, a SQL id, an event, a row source), not its SQL text
        yield title, line, sql


def _parsed(text: str):
    """(position, value) of the rows the parser reads of the output's identifier sections and parameters."""
    from ..parsers import parse_source
    from ..parsers.source import sources_of_bytes

    try:
        src = next(iter(sources_of_bytes("redacted", text.encode("utf-8", "replace"))))
        report = parse_source(src)
    except Exception:  # noqa: BLE001 - an output the parser cannot read is checked by the scans above only
        return
    stack = [report]
    while stack:
        r = stack.pop()
        stack.extend(getattr(r, "periods", ()) or ())
        h = r.header
        for v in (h.db_name, h.unique_name, h.container, h.host):
            if v:
                yield "header", v
        for inst in h.instances:
            for v in (inst.name, inst.host):
                if v:
                    yield "header", v
        for key, sec in list(r.sections.items()) + list(r.diff.items()):
            if key == "init_parameters":
                for row in sec.rows:
                    if row.name and _PARAM.match(row.name):
                        for v in (row.text.get("begin"), row.text.get("end")):
                            if v:
                                yield f"parameter {row.name}", v
                continue
            if not _IDENT_SECTION.match(key):
                continue
            for row in sec.rows:
                if key.startswith("segments_by_") and row.name and row.name.upper() in ORACLE_SCHEMAS:
                    continue  # an Oracle-supplied schema's segments (SYS.WRH$_..., cut to the column) are Oracle's
                if not key.startswith("sql_") and row.name:
                    yield f"section {key}", row.name
                for f in _IDENT_FIELDS:
                    if row.text.get(f):
                        yield f"section {key}", row.text[f]
