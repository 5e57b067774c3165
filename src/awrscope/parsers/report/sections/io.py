"""I/O sections: IO Profile, IOStat by Function/Filetype, Tablespace and File
IO Stats, Buffer Pool Statistics, Checkpoint Activity, Instance Recovery."""
from __future__ import annotations

from ....model import ParseIssue, Row, Section, make_section
from ...numbers import parse_number
from ..raw import Block, RawTable
from .common import Col, match_columns, squash, simple_table_section, table_or_kv, table_rows, units_of

IOSTAT_COLS = [
    Col("name", r"^(function|filetype|functionname|filetypename)", kind="name"),
    # Statspack 11g+ 'IO Stat by Function - summary' heads the same columns
    # 'Data Volume', 'Read Requests /sec', 'Data Vol/sec', (Write ...), 'Wait Count':
    # the first 'Data Volume' is the read one, the second the write one.
    Col("read_data_mb", r"^reads?:?data$|^readsdata$|^datavolume$", "MB", binary=True),
    Col("read_reqs_per_s", r"^(reads?:?)?reqspersec$|^reqspersec$|^readrequests/sec$", "1/s"),
    Col("read_mb_per_s", r"^(reads?:?)?datapersec$|^datapersec$|^datavol/sec$", "MB"),
    Col("write_data_mb", r"^writes?:?data$|^writesdata$|^datavolume$", "MB", binary=True),
    Col("write_reqs_per_s", r"reqspersec|^writerequests/sec$", "1/s"),
    Col("write_mb_per_s", r"datapersec|^datavol/sec$", "MB"),
    Col("waits", r"^waits:?count$|^waitscount$|^count$|^waitcount$"),
    Col("avg_ms", r"^avgtm\(ms\)$|avgtm|^avgtime$", "ms"),  # 12.2: 'Avg Time' cells carry their unit
    Col("small_read_ms", r"smallread", "ms"),
    Col("large_read_ms", r"largeread", "ms"),
]

TS_COLS = [
    Col("name", r"^(tablespace|filename|file)", kind="name"),
    Col("reads", r"^reads$"),
    Col("reads_per_s", r"^av(reads|rds)/s$|^avrds/s$", "1/s"),
    Col("read_ms", r"^avrd\(ms\)$", "ms"),
    Col("blocks_per_read", r"^avblks/rd$", "blocks"),
    Col("one_block_reads_per_s", r"^1-bkrds/s$", "1/s"),
    Col("one_block_read_ms", r"^av1-bkrd\(ms\)$", "ms"),
    Col("writes", r"^writes$"),
    Col("writes_per_s", r"^avwrites/s$|^writesavg/s$", "1/s"),
    Col("write_ms", r"^av(wt|wr)\(ms\)$", "ms"),
    Col("buffer_waits", r"^bufferwaits$"),
    Col("buffer_wait_ms", r"^avbufwt\(ms\)$", "ms"),
]

BUFFER_POOL_COLS = [
    Col("name", r"^p$", kind="name"),
    Col("buffers", r"numberofbuffers|buffers$"),
    Col("hit_pct", r"poolhit%|hit%", "%"),
    Col("buffer_gets", r"buffergets"),
    Col("physical_reads", r"physicalreads"),
    Col("physical_writes", r"physicalwrites"),
    Col("free_buffer_waits", r"freebuf+wait"),
    Col("write_complete_waits", r"writcompwait|writecomplete"),
    Col("buffer_busy_waits", r"bufferbusywaits|busywaits"),
]

CHECKPOINT_COLS = [
    Col("name", r"^$", kind="name"),
    Col("mttr_writes", r"mttrwrites", "blocks"),
    Col("log_size_writes", r"logsizewrites", "blocks"),
    Col("log_ckpt_writes", r"logckptwrites", "blocks"),
    Col("other_settings_writes", r"othersettingswrites", "blocks"),
    Col("autotune_ckpt_writes", r"autotuneckptwrites", "blocks"),
    Col("thread_ckpt_writes", r"threadckptwrites", "blocks"),
    Col("total_physical_writes", r"totalphysicalwrites", "blocks"),
]

RECOVERY_COLS = [
    Col("name", r"^$", kind="name"),
    Col("target_mttr_s", r"targtmttr|targetmttr", "s"),
    Col("estd_mttr_s", r"estdmttr", "s"),
    Col("recovery_estd_ios", r"recoveryestdios|estdios"),
    Col("actual_redo_blks", r"actualredoblks|actualredo"),
    Col("target_redo_blks", r"targetredoblks|targetredo"),
    Col("log_sz_redo_blks", r"logszredoblks|logsz"),
    Col("log_ckpt_timeout_redo_blks", r"timeout"),
    Col("log_ckpt_interval_redo_blks", r"interval"),
    Col("opt_log_sz_mb", r"optlogsz", "MB"),
    Col("estd_rac_avail_time", r"racavail", "s"),
]


def map_io_profile(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return table_or_kv(block, key, ["read_write_per_s", "read_per_s", "write_per_s"], "1/s", issues)


def map_iostat(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, IOSTAT_COLS, issues, min_matched=3)


def map_tablespace_io(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """Name on its own line(s) (File IO: tablespace, then file name), figures on
    the next. A line made only of numbers is a figures line for the names above."""
    if block.format == "html":
        return _tablespace_io_cells(block, key, issues)
    rows: list[Row] = []
    for table in block.tables:
        columns = list(table.columns)
        if columns:  # 'Tablespace Reads' -> 'Reads': the name sits on its own line
            columns[0] = " ".join(w for w in columns[0].split() if w.lower() not in ("tablespace", "filename", "file"))
        shaped = RawTable(columns, table.spans, table.header_line)
        if len(match_columns(shaped, TS_COLS)) < 3:
            continue
        name_parts: list[str] = []
        name_line = None
        table_rows_: list[Row] = []
        for (line, cells), (_, raw) in zip(table.rows, table.raw_rows):
            if not _all_numbers(raw):
                if name_line is None:
                    name_line = line
                name_parts.append(raw.strip())
                continue
            shaped.rows = [(line, cells)]
            parsed = table_rows(block, shaped, TS_COLS, key, issues)
            if parsed:
                name = " ".join(name_parts) if name_parts else None
                table_rows_.append(Row(name, name_line or line, dict(parsed[0].values)))
            name_parts, name_line = [], None
        rows.extend(_fix_1bk_layout(table_rows_))
    if not rows:
        return None
    return make_section(key, block.title, block.line, units_of(TS_COLS), rows, block.notes)


def _tablespace_io_cells(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """HTML prints one row per tablespace or file: the name cells (Tablespace,
    Filename) are joined the way the text lines join them."""
    rows: list[Row] = []
    for table in block.tables:
        name_idx = [k for k, c in enumerate(table.columns) if squash(c) in ("tablespace", "filename", "file")]
        if not name_idx:
            continue
        columns = ["" if k in name_idx else c for k, c in enumerate(table.columns)]
        shaped = RawTable(columns, table.spans, table.header_line)
        if len(match_columns(shaped, TS_COLS)) < 3:
            continue
        table_rows_: list[Row] = []
        for line, cells in table.rows:
            shaped.rows = [(line, cells)]
            parsed = table_rows(block, shaped, TS_COLS, key, issues)
            if parsed:
                name = " ".join(cells[k].strip() for k in name_idx if k < len(cells) and cells[k].strip())
                table_rows_.append(Row(name or None, line, dict(parsed[0].values)))
        rows.extend(_fix_1bk_layout(table_rows_))  # HTML has the same out-of-step columns as text
    if not rows:
        return None
    return make_section(key, block.title, block.line, units_of(TS_COLS), rows, block.notes)


def _all_numbers(raw: str) -> bool:
    toks = raw.split()
    return bool(toks) and all(parse_number(t).value is not None or parse_number(t).flag in ("na", "overflow")
                              for t in toks)


def _fix_1bk_layout(rows: list[Row]) -> list[Row]:
    """11.2.0.4 (text and HTML) prints the figures of the 1-bk columns out of step
    with their headers: the value under '1-bk Rds/s' is the Writes count, the
    one under 'Av 1-bk Rd(ms)' the 1-bk read rate and the one under 'Writes' the
    1-bk read time ('Writes avg/s' is right). E.g. remik USERS: '3.4E+06' under
    '1-bk Rds/s' with 4,103 'Writes avg/s' over 840 s; orcl1 SYSAUX: 348 under
    '1-bk Rds/s' for 39 reads in an hour. The single-block read rate can never
    exceed the read rate: when any row of the table shows that, the whole table
    is shifted and is put back in place."""
    def impossible(v: dict) -> bool:
        one, rps = v.get("one_block_reads_per_s"), v.get("reads_per_s")
        return one is not None and one > (rps or 0.0) + 1.0

    if not any(impossible(r.values) for r in rows):
        return rows
    out = []
    for r in rows:
        v = dict(r.values)
        v["writes"], v["one_block_reads_per_s"], v["one_block_read_ms"] = (
            r.values.get("one_block_reads_per_s"), r.values.get("one_block_read_ms"), r.values.get("writes"))
        out.append(Row(r.name, r.line, v, r.text))
    return out


def map_buffer_pool(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, BUFFER_POOL_COLS, issues, min_matched=3)


def map_checkpoint(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, CHECKPOINT_COLS, issues, min_matched=3)


def map_recovery(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, RECOVERY_COLS, issues, min_matched=3)
