"""PGA, undo, enqueues, latches, buffer waits, SQL ordered by ..., init.ora,
and a generic mapper for tables whose columns are taken from their headers."""
from __future__ import annotations

import re

from ....model import ParseIssue, Row, Section, make_section
from ...numbers import parse_number
from ..raw import Block
from .common import Col, header_time_unit, simple_table_section
from .... import patterns

_SLUG = patterns.compile(r"[^a-z0-9%]+")


def slug(header: str) -> str:
    s = header.lower().replace("%", " pct ").replace("#", " num ").replace("/", " per ")
    return _SLUG.sub("_", s).strip("_") or "value"


def _unit_from_header(header: str) -> str:
    u = header_time_unit(header)
    if u:
        return u
    h = header.lower()
    if "%" in h:
        return "%"
    if "(m)" in h or "(mb)" in h or " mb" in h:
        return "MB"
    if "(k)" in h or "(kb)" in h:
        return "KB"
    if "bytes" in h:
        return "B"
    return "stat"


def generic_table(block: Block, key: str, issues: list[ParseIssue], min_rows: int = 1) -> Section | None:
    """Fields named after the column headers, the first column as the row name;
    used for sections read for display rather than computation."""
    rows: list[Row] = []
    units: dict[str, str] = {}
    for table in block.tables:
        if len(table.columns) < 2:
            continue
        fields = []
        for k, h in enumerate(table.columns):
            f = slug(h) if h else f"col{k}"
            while f in fields:
                f += "_2"
            fields.append(f)
        for f, h in zip(fields[1:], table.columns[1:]):
            units.setdefault(f, _unit_from_header(h))
        for line, cells in table.rows:
            name = cells[0].strip() or None
            values: dict[str, float | None] = {}
            text: dict[str, str] = {}
            for f, c in zip(fields[1:], cells[1:]):
                c = c.strip()
                if not c:
                    continue
                n = parse_number(c)
                if n.value is not None:
                    values[f] = n.value
                elif n.flag in ("na", "overflow"):
                    values[f] = None
                else:
                    text[f] = c
                    units[f] = "text"
            if name is None and not values and not text:
                continue
            rows.append(Row(name, line, values, text))
    if len(rows) < min_rows:
        return None
    return make_section(key, block.title, block.line, units, rows, block.notes)


LATCH_COLS = [
    Col("name", r"^latch(name)?$|^latch", kind="name"),
    Col("get_requests", r"getrequests|^gets$"),
    Col("pct_get_miss", r"pctgetmiss|getmiss", "%"),
    Col("avg_sleeps_per_miss", r"slps/miss|sleeps/miss|avgslps", "ratio"),
    Col("wait_time_s", r"waittime", "s"),
    Col("nowait_requests", r"nowaitrequests"),
    Col("pct_nowait_miss", r"nowaitmiss", "%"),
]

BUFFER_WAIT_COLS = [
    Col("name", r"^class$", kind="name"),
    Col("waits", r"^waits$"),
    Col("time_s", r"totalwaittime|^time|waittime", "s"),
    Col("avg_time_ms", r"avgtime|^avg", "ms"),
]

ENQUEUE_COLS = [
    Col("name", r"^(enqueue|eq|enqueuetype)", kind="name"),
    Col("requests", r"^requests$|^gets$"),  # 8i: 'Enqueue Gets Waits'
    Col("succ_gets", r"^succ"),
    Col("failed_gets", r"^failed"),
    Col("waits", r"^waits$"),
    Col("wait_time_s", r"wttime\(s\)|waittime|^wttime", "s"),
    Col("avg_wait_ms", r"avwttime|avgwt|avwt", "ms"),
]


def map_latches(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, LATCH_COLS, issues, min_matched=3)


def map_buffer_waits(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, BUFFER_WAIT_COLS, issues, min_matched=2)


def map_enqueues(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """10g+ prints the enqueue name on one line and its figures on the next."""
    sec = simple_table_section(block, key, ENQUEUE_COLS, issues, min_matched=3)
    if sec is None:  # 8i prints only 'Enqueue  Gets  Waits'
        sec = simple_table_section(block, key, ENQUEUE_COLS, issues, min_matched=2)
    if sec is None:
        return None
    rows: list[Row] = []
    pending: Row | None = None
    raw = {ln: text for t in block.tables for ln, text in t.raw_rows}
    for r in sec.rows:
        has_values = any(v is not None for v in r.values.values())
        if r.name and not has_values:
            # 'TX-Transaction (row lock contention)' runs across the figure
            # columns of the next line: the name is the whole line, not the cell
            full = raw.get(r.line, "").strip()
            pending = Row(full, r.line, r.values, r.text) if full.startswith(r.name) else r
            continue
        if pending is not None and (r.name is None or _numeric(r.name)):
            values = dict(r.values)
            if r.name and _numeric(r.name):  # figures started under the name column
                values = _shift_values(r)
            rows.append(Row(pending.name, pending.line, values))
            pending = None
            continue
        rows.append(r)
        pending = None
    return make_section(key, sec.title, sec.line, sec.units, rows, sec.notes)


def _numeric(s: str) -> bool:
    return all(parse_number(t).value is not None for t in s.split())


def _shift_values(r: Row) -> dict:
    # the first figure (requests) spilled into the name column
    values = dict(r.values)
    values["requests"] = parse_number(r.name.split()[-1]).value
    return values


UNDO_SUMMARY_COLS = [
    Col("name", r"^undots#?$|^undo", kind="name"),
    Col("undo_blocks_k", r"numundoblocks|undoblocks", "count"),
    Col("transactions", r"numberoftransactions|transactions|^numtrans$"),  # 9i: 'Num Trans'
    Col("max_query_s", r"maxqrylen|maxqry", "s"),
    Col("max_tx_concurrency", r"maxtxconcurcy|concurcy|concurrency"),
    Col("tuned_retention_min", r"min/maxtr|tr\(mins\)", "text", kind="text"),
    Col("sto_oos", r"^sto/?oos$|sto", "text", kind="text"),
    Col("steal_reuse", r"us/ur", "text", kind="text"),
    # 9i prints STO and OOS as two numeric columns 'Snapshot Too Old', 'Out of Space'
    Col("sto", r"^snapshottooold$"),
    Col("oos", r"^outofspace$"),
]


def map_undo_summary(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    sec = simple_table_section(block, key, UNDO_SUMMARY_COLS, issues, min_matched=3)
    if sec is None:
        return generic_table(block, key, issues)
    rows = []
    units = dict(sec.units)
    for r in sec.rows:
        values = dict(r.values)
        sto = r.text.get("sto_oos")
        if sto and "/" in sto:
            a, b = sto.split("/", 1)
            values["sto"] = parse_number(a).value
            values["oos"] = parse_number(b).value
            units["sto"] = units["oos"] = "count"
        tr = r.text.get("tuned_retention_min")
        if tr and "/" in tr:
            a, b = tr.split("/", 1)
            values["min_tuned_retention_min"] = parse_number(a).value
            values["max_tuned_retention_min"] = parse_number(b).value
            units["min_tuned_retention_min"] = units["max_tuned_retention_min"] = "min"
        rows.append(Row(r.name, r.line, values, r.text))
    return make_section(key, sec.title, sec.line, units, rows, sec.notes)


# -- SQL ordered by ------------------------------------------------------------

_SQL_ID = patterns.compile(r"^[0-9a-z]{13}$")
#: A SQL Id cut short by its column: 11.2.0.1 text reports print 'SQL ordered by Gets' with an 11-character SQL Id
#: column ('0w2qpuc6u2z' for 0w2qpuc6u2zsp), to keep the line within 80 characters
_CUT_SQL_ID = patterns.compile(r"^[0-9a-z]{8,12}$")


def _id_test(table, id_idx: int | None):
    """Whether a token is a statement's identifier in this table: a SQL Id, a hash value, or a SQL Id cut to the
    width of an id column narrower than 13 characters."""
    width = None
    if id_idx is not None and table.spans and id_idx < len(table.spans):
        start, end = table.spans[id_idx]
        width = end - start if end - start < 13 else None
    return lambda t: bool(_SQL_ID.match(t) or t.isdigit() or (width and len(t) == width and _CUT_SQL_ID.match(t)))


def map_sql(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """Text: a figures line ending with the SQL Id (10g+) or the hash value (SP),
    then 'Module:' and SQL text lines. HTML: one row per statement, module, PDB
    and SQL text in columns of their own. SQL text is kept (first 1000 chars)."""
    rows: list[Row] = []
    for table in block.tables:
        fields = [slug(h) if h else f"col{k}" for k, h in enumerate(table.columns)]
        units = {f: _unit_from_header(h) for f, h in zip(fields, table.columns)}
        id_idx = next((k for k, h in enumerate(table.columns)
                       if re.search(r"sql\s*id|hash\s*value|old\s*hash", h, re.I)), None)
        if not table.spans:  # HTML: the cells are there, one statement per row
            rows = _sql_html_rows(table, fields, id_idx)
            units = {f: u for f, u in units.items() if f not in _SQL_TEXT_COLUMNS}
            if rows:
                return make_section(key, block.title, block.line, units, rows, block.notes)
            continue
        current: dict | None = None
        is_id = _id_test(table, id_idx)
        for line, cells, raw in _sql_lines(table, id_idx, is_id):
            ident = cells[id_idx].strip() if cells is not None and id_idx < len(cells) else ""
            numbers = [parse_number(c).value for c in cells] if cells is not None else []
            # N/A counts as a figure: 'Version Count  Executions(N/A)  SQL Id' rows
            # carry one number only
            figures = sum(v is not None or c.strip() == "N/A" for v, c in zip(numbers, cells or []))
            if ident and is_id(ident) and figures >= 2:
                if current:
                    rows.append(_sql_row(current))
                values = {f: v for f, v, k in zip(fields, numbers, range(len(fields))) if k != id_idx and v is not None}
                current = {"id": ident, "line": line, "values": values, "module": None, "text": []}
                continue
            if current is None:
                continue
            s = raw.strip()
            if s.lower().startswith("module:"):
                current["module"] = s[7:].strip()
            elif s and sum(len(t) for t in current["text"]) < 1000:
                current["text"].append(s)
        if current:
            rows.append(_sql_row(current))
        if rows:
            return make_section(key, block.title, block.line, units, rows, block.notes)
    return None


# HTML columns holding text, by their slug: the key they are kept under
_SQL_TEXT_COLUMNS = {"sql_module": "module", "pdb_name": "pdb_name", "sql_text": "sql_text"}


def _sql_html_rows(table, fields: list[str], id_idx: int | None) -> list[Row]:
    rows: list[Row] = []
    if id_idx is None:
        return rows
    kept = [(k, f, _SQL_TEXT_COLUMNS.get(f)) for k, f in enumerate(fields) if k != id_idx]
    for line, cells in table.rows:
        ident = cells[id_idx].strip() if id_idx < len(cells) else ""
        if not (_SQL_ID.match(ident) or ident.isdigit()):
            continue
        values: dict[str, float | None] = {}
        text = {"sql_id": ident}
        for k, field, text_key in kept:
            cell = cells[k].strip() if k < len(cells) else ""
            if text_key:
                if cell:
                    text[text_key] = cell[:1000]
            elif cell:
                v = parse_number(cell).value
                if v is not None:
                    values[field] = v
        rows.append(Row(ident, line, values, text))
    return rows


def _sql_lines(table, id_idx: int | None, is_id):
    """(line, cells or None, raw text): only lines that can be figure lines are
    cut into cells; SQL text and module lines are not."""
    if table.raw_rows:
        cut = table.cut_with()
        for line, raw in table.raw_rows:
            toks = raw.split()
            if id_idx is not None and toks and (is_id(toks[-1]) or any(_SQL_ID.match(t) for t in toks[-3:])):
                yield line, cut(raw), raw
            else:
                yield line, None, raw
    else:  # HTML: cells are already there
        for line, cells in table.rows:
            yield line, cells, " ".join(cells)


def complete_sql_ids(sections: dict[str, Section], issues: list[ParseIssue]) -> None:
    """A list that prints its SQL Ids cut short (_CUT_SQL_ID) gets each completed from the full ids the other 'SQL
    ordered by' lists print, when exactly one starts with it; the id as printed stays in ``sql_id_printed``."""
    lists = {k: sec for k, sec in sections.items() if k.startswith("sql_by_")}
    full = {r.text.get("sql_id") for sec in lists.values() for r in sec.rows}
    full = sorted(i for i in full if i and _SQL_ID.match(i))
    for key, sec in lists.items():
        cut = [r for r in sec.rows if _CUT_SQL_ID.match(r.text.get("sql_id") or "") and not r.text["sql_id"].isdigit()]
        if not cut:
            continue
        cut_lines = {r.line for r in cut}
        done, rows = 0, []
        for r in sec.rows:
            printed = r.text.get("sql_id") or ""
            match = [i for i in full if i.startswith(printed)] if r.line in cut_lines else []
            if len(match) == 1:
                r = Row(match[0], r.line, r.values, {**r.text, "sql_id": match[0], "sql_id_printed": printed})
                done += 1
            rows.append(r)
        sections[key] = make_section(key, sec.title, sec.line, dict(sec.units), rows, list(sec.notes))
        issues.append(ParseIssue("info", key, cut[0].line, f"section '{sec.title}' prints its SQL Ids cut to "
                                 f"{len(cut[0].text['sql_id'])} characters: {done} of {len(cut)} completed from the "
                                 "other SQL lists, the rest kept as printed"))


def _sql_row(cur: dict) -> Row:
    text = {"sql_id": cur["id"]}
    if cur["module"]:
        text["module"] = cur["module"]
    if cur["text"]:
        text["sql_text"] = " ".join(cur["text"])[:1000]
    return Row(cur["id"], cur["line"], cur["values"], text)


# -- init.ora --------------------------------------------------------------------


def map_parameters(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    rows: list[Row] = []
    for table in block.tables:
        if len(table.columns) < 2:
            continue
        for line, cells in table.rows:
            name = cells[0].strip()
            if not name or " " in name or len(cells) < 2:  # a damaged row may stop after the name
                continue
            text = {"begin": cells[1].strip()}
            if len(cells) > 2 and cells[2].strip():
                text["end"] = cells[2].strip()
            rows.append(Row(name, line, {}, text))
    if not rows:
        return None
    return make_section(key, block.title, block.line, {"begin": "text", "end": "text"}, rows, block.notes)


_ADDM_FIELDS = (("aas", patterns.compile(r"^avg")), ("pct_active_sessions", patterns.compile(r"^perc")),
                ("task_name", patterns.compile(r"^task")), ("begin", patterns.compile(r"^begin")), ("end", patterns.compile(r"^end")))


def map_addm_findings(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """Top ADDM Findings by Average Active Sessions: the finding name, the task's average active
    sessions, the finding's percent of them, the task name (ADDM:dbid_inst_endsnap) and, in HTML,
    the task's begin and end snapshot times. Column headers are cut in text ('Avg act', 'Percen')."""
    sec = generic_table(block, key, issues)
    if sec is None:
        return None
    names = {}
    for f in sec.units:
        for new, rx in _ADDM_FIELDS:
            if rx.search(f) and new not in names.values():
                names[f] = new
                break
    rows = [Row(r.name, r.line, {names.get(k, k): v for k, v in r.values.items()},
                {names.get(k, k): v for k, v in r.text.items()}) for r in sec.rows if r.name]
    units = {names.get(k, k): u for k, u in sec.units.items()}
    units.update({"aas": "sessions", "pct_active_sessions": "%"})
    return make_section(key, sec.title, sec.line, units, rows, sec.notes)


#: (field, words a compare-period column must contain, period marker) of "Top SQL Comparison by Elapsed Time".
_COMPARISON_COLUMNS = (
    ("pct_db_time_1st", "% of db time", "1st"), ("pct_db_time_2nd", "% of db time", "2nd"),
    ("elapsed_per_exec_ms_1st", "elapsed time (ms) per exec", "1st"),
    ("elapsed_per_exec_ms_2nd", "elapsed time (ms) per exec", "2nd"),
    ("executions_1st", "#executions", "1st"), ("executions_2nd", "#executions", "2nd"),
)
_COMPARISON_UNITS = {"pct_db_time_1st": "%", "pct_db_time_2nd": "%", "elapsed_per_exec_ms_1st": "ms",
                     "elapsed_per_exec_ms_2nd": "ms", "executions_1st": "stat", "executions_2nd": "stat"}


def map_sql_comparison(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """A compare-period report's "Top SQL Comparison by Elapsed Time", whole (not cut into periods): per SQL Id
    its share of each period's DB time, elapsed per execution and executions ('N/A' or blank: not captured in
    that period), the '#Plans 1st/2nd/Both' cell and the SQL text (HTML: a column; text: the lines below)."""
    for table in block.tables:
        cols = [" ".join(c.lower().split()) for c in (_grouped_columns(block, table) or table.columns)]
        id_idx = next((k for k, c in enumerate(cols) if c == "sql id"), None)
        if id_idx is None:
            continue
        where = {}
        for field, words, period in _COMPARISON_COLUMNS:
            k = next((k for k, c in enumerate(cols) if words in c and c.endswith(period)), None)
            if k is not None:
                where[field] = k
        if "pct_db_time_1st" not in where or "pct_db_time_2nd" not in where:
            continue
        plans_idx = next((k for k, c in enumerate(cols) if "#plans" in c), None)
        text_idx = next((k for k, c in enumerate(cols) if c == "sql text"), None)
        rows: list[dict] = []
        for line, cells, raw in _comparison_lines(table):
            ident = cells[id_idx].strip() if cells is not None and id_idx < len(cells) else ""
            if _SQL_ID.match(ident):
                values = {f: parse_number(cells[k]).value for f, k in where.items() if k < len(cells)}
                text = {"sql_id": ident}
                if plans_idx is not None and plans_idx < len(cells) and cells[plans_idx].strip():
                    text["plans"] = " ".join(cells[plans_idx].split())
                if text_idx is not None and text_idx < len(cells) and cells[text_idx].strip():
                    text["sql_text"] = cells[text_idx].strip()[:1000]
                rows.append({"id": ident, "line": line, "values": values, "text": text})
            elif rows and cells is None and raw.strip():  # text: the statement's text follows its figures
                t = rows[-1]["text"]
                t["sql_text"] = (t.get("sql_text", "") + raw.strip())[:1000]
        if rows:
            return make_section(key, block.title, block.line, _COMPARISON_UNITS,
                                [Row(r["id"], r["line"], r["values"], r["text"]) for r in rows], block.notes)
    return None


def _grouped_columns(block: Block, table) -> list[str] | None:
    """Text: the column names under a group title spanning several columns ('Elapsed Time % of DB time' over
    '1st  1st Total  2nd  2nd Total  Diff'), read from the group's own underline: group title + column name."""
    if not table.spans or not block.lines:
        return None
    from ..text.tables import dash_runs

    j = table.header_line - block.first_line
    if j < 3 or j >= len(block.lines):
        return None
    names_line, group_runs, group_line = block.lines[j - 1], dash_runs(block.lines[j - 2]), block.lines[j - 3]
    if not group_runs:
        return None
    out = []
    for a, b in table.spans:
        own = names_line[a:b].strip()
        # the group's title may run past its underline: read it up to the next group's start
        group = next((group_line[ga:nxt].strip() for (ga, gb), nxt in zip(group_runs, [r[0] for r in group_runs[1:]] + [None])
                      if ga <= a and b <= gb + 1), "")
        out.append(f"{group} {own}".strip())
    return out


def _comparison_lines(table):
    """(line, cells or None, raw): text lines are cut only when they start with a SQL Id (the statement's text
    lines below are not figures); HTML rows come cut."""
    if not table.spans:
        for line, cells in table.rows:
            yield line, cells, ""
        return
    for line, raw in table.raw_rows:
        first = raw.split(None, 1)[:1]
        yield (line, table.cut(raw), raw) if first and _SQL_ID.match(first[0]) else (line, None, raw)
