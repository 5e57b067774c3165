"""RAC global reports (``awrgrpt.sql``, "WORKLOAD REPOSITORY REPORT (RAC)").

A global report prints the database once and each instance as a row: tables
start with an ``I#`` column whose last rows are ``Sum``/``Avg`` (several
instances), and event tables mark cluster-wide rows with ``I# = *``. This
module turns those tables into the regular section keys holding the
*database totals* (so downstream code reads a global report like a
single-instance one) plus ``<key>_by_instance`` sections whose rows carry an
``instance`` text field. Tables without an instance column (``... (Global)``)
are ordinary tables: their title suffix is dropped and their column names
aliased to the single-instance names, then the regular registry maps them.
"""
from __future__ import annotations

import re

from ...model import Header, Instance, ParseIssue, Row, Section, Snapshot, make_section
from ..numbers import parse_number
from .raw import Block, RawTable
from .sections import events, io
from .sections.common import squash
from ..timefmt import parse_time
from ... import patterns

# Global column names -> the single-instance names the section mappers know.
_COLUMN_ALIASES = {
    "waitevent": "Event",
    "eventwaits": "Waits",
    "event%timeouts": "%Time-outs",
    "waittimetotal(s)": "Total Wait Time (s)",
    "waittimeavgwait": "Avg wait",
    "waittimeavg(ms)": "Avg wait (ms)",
    "waittime%dbtime": "% DB time",
    "waittime%bgtime": "% bg time",
}
_TITLE_ALIASES = {
    "system statistics (global)": "Instance Activity Stats",
}
_GLOBAL_SUFFIX = patterns.compile(r"\s*\(global\)\s*$", re.I)
_TOTAL_ROWS = ("sum", "*")


def is_instance_table(table: RawTable) -> bool:
    return bool(table.columns) and squash(table.columns[0]) == "i#"


def adapt_global(blocks: list[Block], issues: list[ParseIssue]) -> tuple[Header, list[Block], dict[str, Section]]:
    """(header, blocks for the registry, sections built here)."""
    header = Header()
    sections: dict[str, Section] = {}
    for_registry: list[Block] = []
    names: dict[str, str] = {}  # I# -> instance name
    by_title = {b.title.lower(): b for b in blocks}
    summary = by_title.get("database summary")
    inst_block = by_title.get("database instances included in report")
    if summary:
        _database_summary(summary, header)
    if inst_block:
        names = _instances(inst_block, header)
    for b in blocks:
        title = b.title.lower()
        if b is summary or b is inst_block:
            continue
        if title == "time model" and b.tables:
            _time_model(b, names, sections)
        elif title == "top timed events" and b.tables:
            _top_events(b, names, sections, issues)
        elif title == "system statistics - per second" and b.tables:
            _load_profile(b, by_title, names, sections)
        elif title == "foreground wait classes" and b.tables:
            _wait_classes(b, names, sections)
        elif title.startswith("foreground wait classes"):
            continue  # the same figures as shares of DB time
        elif title == "os statistics by instance" and b.tables:
            _os_stats(b, names, sections)
        elif title == "iostat by function" and b.tables:
            _iostat_function(b, names, sections, issues)
        elif title == "iostat by function (per second)" and b.tables:
            _iostat_function_per_second(b, names, sections)
        elif b.tables and is_instance_table(b.tables[0]):
            continue  # per-instance tables not mapped yet: listed as unrecognised by title
        else:
            for_registry.append(_aliased(b))
    return header, for_registry, sections


def _aliased(b: Block) -> Block:
    title = _GLOBAL_SUFFIX.sub("", b.title)
    title = _TITLE_ALIASES.get(b.title.lower(), title)
    tables = [RawTable([_COLUMN_ALIASES.get(squash(c), c) for c in t.columns], t.spans, t.header_line, t.rows,
                       t.raw_rows) for t in b.tables]
    return Block(title, b.line, b.notes, tables, b.lines, b.first_line, b.format)


def _cells_by_column(table: RawTable, cells: list[str]) -> dict[str, str]:
    return {squash(c): v.strip() for c, v in zip(table.columns, cells)}


def _database_summary(b: Block, h: Header) -> None:
    t = b.tables[0]
    if not t.rows:
        return
    d = _cells_by_column(t, t.rows[0][1])
    h.line = t.rows[0][0]
    h.db_name = d.get("databasename") or None
    h.dbid = _int(d.get("databaseid"))
    h.unique_name = d.get("databaseuniquename") or None
    h.role = d.get("databaserole") or None
    h.edition = d.get("databaseedition") or None
    if d.get("databaserac"):
        h.rac = d["databaserac"].upper().startswith("Y")
    if d.get("databasecdb"):
        h.cdb = d["databasecdb"].upper().startswith("Y")
    h.begin = Snapshot(_int(d.get("snapshotidsbegin")), None, line=h.line)
    h.end = Snapshot(_int(d.get("snapshotidsend")), None, line=h.line)
    h.db_time_min = _num(d.get("reporttotal(minutes)dbtime"))
    h.elapsed_min = _num(d.get("reporttotal(minutes)elapsedtime"))


def _instances(b: Block, h: Header) -> dict[str, str]:
    t = b.tables[0]
    names: dict[str, str] = {}
    begins, ends = [], []
    elapsed, dbtime = [], []
    for line, cells in t.rows:
        d = _cells_by_column(t, cells)
        number = _int(d.get("i#"))
        name = d.get("instance") or None
        h.instances.append(Instance(name, number, d.get("host") or None, parse_time(d.get("startup", ""))))
        if name and d.get("i#"):
            names[d["i#"]] = name
        h.version = h.version or d.get("release") or None
        h.platform = h.platform or d.get("platform") or None
        h.host = h.host or d.get("host") or None
        for key, acc in (("beginsnaptime", begins), ("endsnaptime", ends)):
            tm = parse_time(d.get(key, ""))
            if tm:
                acc.append(tm)
        for key, acc in (("elapsedtime(min)", elapsed), ("dbtime(min)", dbtime)):
            v = _num(d.get(key))
            if v is not None:
                acc.append(v)
    if begins and h.begin is not None:
        h.begin = Snapshot(h.begin.snap_id, min(begins), line=h.begin.line)
    if ends and h.end is not None:
        h.end = Snapshot(h.end.snap_id, max(ends), line=h.end.line)
    # instances cover the same window: the report elapsed is the longest one,
    # DB time adds up (used only when the Database Summary does not print them)
    if h.elapsed_min is None and elapsed:
        h.elapsed_min = max(elapsed)
    if h.db_time_min is None and dbtime:
        h.db_time_min = sum(dbtime)
    return names


def _total_and_instance_rows(table: RawTable):
    """Split rows into (total rows, [(instance key, row)]). One instance and
    no Sum row: that instance's rows are the totals."""
    totals, per_instance = [], []
    for line, cells in table.rows:
        key = cells[0].strip() if cells else ""
        if key.lower() in _TOTAL_ROWS:
            totals.append((line, cells))
        elif key.lower() in ("avg", "std", "min", "max"):
            continue  # the report's statistics over the instances, not an instance
        elif key:
            per_instance.append((key, line, cells))
    if not totals and len({k for k, _, _ in per_instance}) == 1:
        totals = [(line, cells) for _, line, cells in per_instance]
    return totals, per_instance


def _time_model(b: Block, names: dict[str, str], sections: dict[str, Section]) -> None:
    """Columns are statistics ('DB time (s)'), rows are instances."""
    t = b.tables[0]
    totals, per_instance = _total_and_instance_rows(t)
    stat_cols = [(k, re.sub(r"\s*\(s\)\s*$", "", c).strip()) for k, c in enumerate(t.columns) if k > 0 and c]
    total_rows = [Row(stat, line, {"time_s": _num(cells[k]) if k < len(cells) else None})
                  for line, cells in totals[:1] for k, stat in stat_cols]
    inst_rows = [Row(stat, line, {"time_s": _num(cells[k]) if k < len(cells) else None},
                     {"instance": names.get(key, key)})
                 for key, line, cells in per_instance for k, stat in stat_cols]
    units = {"time_s": "s"}
    if total_rows:
        sections["time_model"] = make_section("time_model", b.title, b.line, units, total_rows, b.notes)
    if inst_rows:
        sections["time_model_by_instance"] = make_section("time_model_by_instance", b.title, b.line,
                                                          {**units, "instance": "text"}, inst_rows, b.notes)


def _top_events(b: Block, names: dict[str, str], sections: dict[str, Section], issues: list[ParseIssue]) -> None:
    aliased = _aliased(b)
    t = aliased.tables[0]
    totals, per_instance = _total_and_instance_rows(t)
    instance_of_line = {line: names.get(key, key) for key, line, _ in per_instance}
    total_lines = {line for line, _ in totals}
    sec = events.map_events(aliased, "top_events", issues)
    if sec is None:
        return
    tot = [r for r in sec.rows if r.line in total_lines]
    inst = [Row(r.name, r.line, r.values, {**r.text, "instance": instance_of_line[r.line]})
            for r in sec.rows if r.line in instance_of_line and r.line not in total_lines]
    if tot:
        sections["top_events"] = make_section("top_events", b.title, b.line, sec.units, tot, b.notes)
    if inst:
        sections["top_events_by_instance"] = make_section("top_events_by_instance", b.title, b.line,
                                                          {**sec.units, "instance": "text"}, inst, b.notes)


def _load_profile(b: Block, by_title: dict[str, Block], names: dict[str, str], sections: dict[str, Section]) -> None:
    """'System Statistics - Per Second' (Sum row) gives per_second; per
    transaction is the database total divided by all transactions, taken
    from 'System Statistics' (its Avg row would average instance ratios)."""
    per_sec = b.tables[0]
    totals, per_instance = _total_and_instance_rows(per_sec)
    stat_cols = [(k, re.sub(r"\s*/s$", "", c).strip()) for k, c in enumerate(per_sec.columns) if k > 0 and c]
    abs_block = by_title.get("system statistics")
    abs_totals: dict[str, float | None] = {}
    txns = None
    if abs_block and abs_block.tables:
        at = abs_block.tables[0]
        a_tot, _ = _total_and_instance_rows(at)
        if a_tot:
            abs_totals = {c.strip(): _num(v) for c, v in zip(at.columns, a_tot[0][1])}
            txns = abs_totals.get("Txns")
    rows = []
    for line, cells in totals[:1]:
        for k, stat in stat_cols:
            total = abs_totals.get(stat)
            per_txn = total / txns if total is not None and txns else None
            rows.append(Row(stat, line, {"per_second": _num(cells[k]) if k < len(cells) else None,
                                         "per_transaction": per_txn}))
    inst_rows = [Row(stat, line, {"per_second": _num(cells[k]) if k < len(cells) else None},
                     {"instance": names.get(key, key)})
                 for key, line, cells in per_instance for k, stat in stat_cols]
    units = {"per_second": "1/s", "per_transaction": "1/txn"}
    if rows:
        sections["load_profile"] = make_section("load_profile", b.title, b.line, units, rows, b.notes)
    if inst_rows:
        sections["load_profile_by_instance"] = make_section("load_profile_by_instance", b.title, b.line,
                                                            {"per_second": "1/s", "instance": "text"}, inst_rows,
                                                            b.notes)


# Abbreviated wait class names of the global report -> V$SYSTEM_WAIT_CLASS names.
_WAIT_CLASS_NAMES = {"sys i/o": "System I/O", "applic": "Application", "concurcy": "Concurrency",
                     "config": "Configuration", "admin": "Administrative"}


def _wait_classes(b: Block, names: dict[str, str], sections: dict[str, Section]) -> None:
    """'Foreground Wait Classes': instances as rows, one column per class in
    seconds, then 'DB CPU (s)' and 'DB time'. Rows of ``wait_classes`` are
    the classes (and DB CPU) of the Sum row, with their share of DB time."""
    t = b.tables[0]
    totals, per_instance = _total_and_instance_rows(t)
    classes = []
    db_time_col = None
    for k, c in enumerate(t.columns):
        name = re.sub(r"\s*\(s\)\s*$", "", c).strip()
        if k == 0 or not name:
            continue
        if name.lower() == "db time":
            db_time_col = k
        else:
            classes.append((k, _WAIT_CLASS_NAMES.get(name.lower(), name)))

    def rows_of(line: int, cells: list[str], text: dict[str, str]) -> list[Row]:
        dbt = _num(cells[db_time_col]) if db_time_col is not None and db_time_col < len(cells) else None
        out = []
        for k, name in classes:
            v = _num(cells[k]) if k < len(cells) else None
            out.append(Row(name, line, {"time_s": v, "pct_db_time": 100.0 * v / dbt if v is not None and dbt else None},
                           dict(text)))
        return out

    units = {"time_s": "s", "pct_db_time": "%"}
    total_rows = [r for line, cells in totals[:1] for r in rows_of(line, cells, {})]
    inst_rows = [r for key, line, cells in per_instance for r in rows_of(line, cells, {"instance": names.get(key, key)})]
    if total_rows:
        sections["wait_classes"] = make_section("wait_classes", b.title, b.line, units, total_rows, b.notes)
    if inst_rows:
        sections["wait_classes_by_instance"] = make_section("wait_classes_by_instance", b.title, b.line,
                                                            {**units, "instance": "text"}, inst_rows, b.notes)


# 'OS Statistics By Instance' columns (11.2: 'Num CPUs', 'Busy Time (s)'; 12.2+: 'CPU #CPUs', 'Time (s) Busy')
# -> V$OSSTAT names; times are printed in seconds, V$OSSTAT keeps centiseconds.
_OS_COLUMNS = (
    (patterns.compile(r"^(num|cpu#)cpus$"), "NUM_CPUS", 1.0),
    (patterns.compile(r"^(cpu|cpu#)cores$"), "NUM_CPU_CORES", 1.0),
    (patterns.compile(r"^(cpu|cpu#)sckts$"), "NUM_CPU_SOCKETS", 1.0),
    (patterns.compile(r"^busytime\(s\)$|^time\(s\)busy$"), "BUSY_TIME", 100.0),
    (patterns.compile(r"^idletime\(s\)$|^time\(s\)idle$"), "IDLE_TIME", 100.0),
    (patterns.compile(r"^loadbegin$"), "LOAD", 1.0),
)


def _os_stats(b: Block, names: dict[str, str], sections: dict[str, Section]) -> None:
    """Per instance: CPUs, cores, sockets, busy and idle time, load. The
    database has the CPUs, cores and sockets of all instances and their busy
    and idle time (the Sum row), so host CPU busy % and CPU demand are those
    of the cluster."""
    t = b.tables[0]
    cols = []
    for k, c in enumerate(t.columns):
        h = squash(c)
        for rx, stat, scale in _OS_COLUMNS:
            if rx.search(h):
                cols.append((k, stat, scale))
                break
    totals, per_instance = _total_and_instance_rows(t)
    inst_rows: list[Row] = []
    sums: dict[str, float] = {}
    for key, line, cells in per_instance:
        for k, stat, scale in cols:
            v = _num(cells[k]) if k < len(cells) else None
            v = round(v * scale, 2) if v is not None else None
            inst_rows.append(Row(stat, line, {"value": v}, {"instance": names.get(key, key)}))
            if v is not None and stat != "LOAD":
                sums[stat] = round(sums.get(stat, 0.0) + v, 2)
    total_line = totals[0][0] if totals else (per_instance[0][1] if per_instance else b.line)
    if totals:  # the printed Sum row wins for the times
        for k, stat, scale in cols:
            v = _num(totals[0][1][k]) if k < len(totals[0][1]) else None
            if v is not None and stat in ("BUSY_TIME", "IDLE_TIME"):
                sums[stat] = round(v * scale, 2)
    order = [stat for _, stat, _ in cols if stat in sums]
    total_rows = [Row(stat, total_line, {"value": sums[stat]}) for stat in order]
    units = {"value": "stat"}
    if total_rows:
        sections["os_stats"] = make_section("os_stats", b.title, b.line, units, total_rows, b.notes)
    if inst_rows:
        sections["os_stats_by_instance"] = make_section("os_stats_by_instance", b.title, b.line,
                                                        {**units, "instance": "text"}, inst_rows, b.notes)


# 12.2+ 'IOStat by Function' (one row per instance and function, '*' rows for the
# database) -> the single-instance IOStat column names io.map_iostat knows.
_IOSTAT_ALIASES = {
    "requestsreads/s": "Reads Reqs per sec",
    "requestswrites/s": "Writes Reqs per sec",
    "mbreadmb/s": "Reads Data per sec",
    "mbwritemb/s": "Writes Data per sec",
}


def _iostat_function(b: Block, names: dict[str, str], sections: dict[str, Section],
                     issues: list[ParseIssue]) -> None:
    t = b.tables[0]
    aliased = Block(b.title, b.line, b.notes,
                    [RawTable([_IOSTAT_ALIASES.get(squash(c), c) for c in t.columns], t.spans, t.header_line,
                              t.rows, t.raw_rows)], b.lines, b.first_line, b.format)
    sec = io.map_iostat(aliased, "iostat_function", issues)
    if sec is None:
        return
    totals, per_instance = _total_and_instance_rows(t)
    total_lines = {line for line, _ in totals}
    instance_of_line = {line: names.get(key, key) for key, line, _ in per_instance}
    tot = [r for r in sec.rows if r.line in total_lines]
    inst = [Row(r.name, r.line, r.values, {**r.text, "instance": instance_of_line[r.line]})
            for r in sec.rows if r.line in instance_of_line and r.line not in total_lines]
    if tot:
        sections["iostat_function"] = make_section("iostat_function", b.title, b.line, sec.units, tot, b.notes)
    if inst:
        sections["iostat_function_by_instance"] = make_section("iostat_function_by_instance", b.title, b.line,
                                                               {**sec.units, "instance": "text"}, inst, b.notes)


# 11.2 'IOStat by Function (per Second)': instances as rows, 'Writes requests/sec LGWR'-style columns.
_IOSTAT_WIDE = patterns.compile(r"^(reads|writes)\s+(mb|requests)/sec\s+(.+)$", re.I)
_IOSTAT_WIDE_FIELDS = {("reads", "mb"): "read_mb_per_s", ("reads", "requests"): "read_reqs_per_s",
                       ("writes", "mb"): "write_mb_per_s", ("writes", "requests"): "write_reqs_per_s"}


def _iostat_function_per_second(b: Block, names: dict[str, str], sections: dict[str, Section]) -> None:
    t = b.tables[0]
    cols = []
    for k, c in enumerate(t.columns):
        m = _IOSTAT_WIDE.match(c.strip())
        if m:
            cols.append((k, m.group(3).strip(), _IOSTAT_WIDE_FIELDS[(m.group(1).lower(), m.group(2).lower())]))
    totals, per_instance = _total_and_instance_rows(t)

    def rows_of(line: int, cells: list[str], text: dict[str, str]) -> list[Row]:
        by_function: dict[str, dict[str, float | None]] = {}
        for k, function, field in cols:
            by_function.setdefault(function, {})[field] = _num(cells[k]) if k < len(cells) else None
        return [Row(function, line, values, dict(text)) for function, values in by_function.items()]

    units = {"read_mb_per_s": "MB", "read_reqs_per_s": "1/s", "write_mb_per_s": "MB", "write_reqs_per_s": "1/s"}
    tot = [r for line, cells in totals[:1] for r in rows_of(line, cells, {})]
    inst = [r for key, line, cells in per_instance for r in rows_of(line, cells, {"instance": names.get(key, key)})]
    if tot:
        sections["iostat_function"] = make_section("iostat_function", b.title, b.line, units, tot, b.notes)
    if inst:
        sections["iostat_function_by_instance"] = make_section("iostat_function_by_instance", b.title, b.line,
                                                               {**units, "instance": "text"}, inst, b.notes)


def _num(cell: str | None) -> float | None:
    return parse_number(cell).value if cell else None


def _int(cell: str | None) -> int | None:
    v = _num(cell)
    return int(v) if v is not None else None
