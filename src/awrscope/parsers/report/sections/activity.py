"""Summary-page and statistics sections: Load Profile, Instance Efficiency,
Cache Sizes, Host/Instance CPU, OS statistics, Instance Activity Stats."""
from __future__ import annotations


from ....model import ParseIssue, Row, Section, make_section
from ....oracle.statistics import canonical_stat
from ...numbers import parse_number
from ..raw import Block
from .common import Col, kv_pairs, kv_section, simple_table_section, table_or_kv
from .... import patterns

ACTIVITY_COLS = [
    Col("name", r"^statistic", kind="name"),
    Col("total", r"^total$|^value$", "stat"),
    Col("per_second", r"persec|/sec|^persecond", "1/s"),
    Col("per_transaction", r"pertrans|/txn|pertxn|^pertransaction", "1/txn"),
]
ABSOLUTE_COLS = [
    Col("name", r"^statistic", kind="name"),
    Col("begin", r"^begin", "stat"),
    Col("end", r"^end", "stat"),
]
THREAD_COLS = [
    Col("name", r"^statistic", kind="name"),
    Col("total", r"^total$", "count"),
    Col("per_hour", r"perhour|/hour|hour", "1/h"),
]
OS_COLS = [
    Col("name", r"^statistic$|^statistic", kind="name"),
    Col("value", r"^value$|^total$|^begin", "stat"),
    Col("end_value", r"^endvalue$|^end$", "stat"),
]
HOST_CPU_COLS = [
    Col("cpus", r"^cpus$"), Col("cores", r"^cores$"), Col("sockets", r"^sockets$"),
    Col("load_begin", r"begin$", "ratio"), Col("load_end", r"end$", "ratio"),
    # Statspack prints 'User System Idle WIO' without '%' (and the CPU counts in the title)
    Col("pct_user", r"%user|^user$|\)user$", "%"), Col("pct_system", r"%sys|^system$", "%"),
    Col("pct_wio", r"%wio|^wio$", "%"), Col("pct_idle", r"%idle|^idle$", "%"),
]
_SP_HOST_CPU = patterns.compile(r"CPUs:\s*(\d+)(?:\s+Cores:\s*(\d+))?(?:\s+Sockets:\s*(\d+))?")  # 10g: CPUs only


def _fix_stat(name: str, cut_at: int | None) -> str:
    return canonical_stat(name, cut_at)


def map_instance_activity(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    # Statspack 10g+ prints the absolute values (Begin/End Value) and the thread
    # activity ('log switches (derived)', Total, per Hour) under the same
    # 'Instance Activity Stats' title: the block holds all three tables.
    hourly = [t for t in block.tables if any("hour" in c.lower() for c in t.columns)]
    absolute = [t for t in block.tables if any(c.lower().startswith("begin") for c in t.columns)]
    if not hourly and not absolute:
        return simple_table_section(block, key, ACTIVITY_COLS, issues, name_fix=_fix_stat, min_matched=2)
    out = []
    for k, tables, mapper in ((key, [t for t in block.tables if t not in hourly and t not in absolute],
                               lambda b, k2: simple_table_section(b, k2, ACTIVITY_COLS, issues, name_fix=_fix_stat,
                                                                  min_matched=2)),
                              ("instance_activity_absolute", absolute, lambda b, k2: map_activity_absolute(b, k2, issues)),
                              ("thread_activity", hourly, lambda b, k2: map_thread_activity(b, k2, issues))):
        if tables:
            sec = mapper(Block(block.title, block.line, block.notes, tables, block.lines, block.first_line,
                               block.format), k)
            if sec is not None:
                out.append(sec)
    return out or None


def map_activity_absolute(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, ABSOLUTE_COLS, issues, name_fix=_fix_stat, min_matched=2)


def map_thread_activity(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, THREAD_COLS, issues, min_matched=2)


def map_os_stats(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, OS_COLS, issues, min_matched=2)


def map_load_profile(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    sec = table_or_kv(block, key, ["per_second", "per_transaction", "per_exec", "per_call"], "stat", issues)
    if sec is None:
        return None
    # Trailing key/value pairs (SP: '% Blocks changed per Read:  0.36  Recursive Call %: 84.45')
    # are part of the block too; the table reader gave them as rows with values in odd places.
    rows = []
    for r in sec.rows:
        if "%" in r.name or ":" in r.name:
            continue
        rows.append(r)
    extra = []
    for j, line in enumerate(block.lines):
        if "%" in line and ":" in line:
            for label, vals in kv_pairs(line):
                # every pair of these lines, '% Blocks changed per Read' and 'Rows per Sort' alike
                if vals:
                    extra.append(Row(label, block.first_line + j, {"value": parse_number(vals[0]).value}))
    units = dict(sec.units)
    if extra:
        units["value"] = "%"
    return make_section(key, block.title, block.line, units, rows + extra, block.notes)


def map_efficiency(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    if block.lines:
        return kv_section(block, key, ["value"], "%", issues)
    return table_or_kv(block, key, ["value"], "%", issues)


def map_cache_sizes(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """Sizes printed with K/M/G suffixes are KiB/MiB/GiB: converted to bytes.
    8i prints parameters (db_block_buffers, log_buffer) as plain numbers."""
    rows: list[Row] = []
    lines = block.lines
    for j, line in enumerate(lines):
        for label, vals in kv_pairs(line):
            if not vals:
                continue
            begin = _size_bytes(vals[0])
            end = _size_bytes(vals[1]) if len(vals) > 1 else None
            rows.append(Row(label, block.first_line + j, {"begin": begin, "end": end}))
    if not rows and block.tables:
        for table in block.tables:
            for line, cells in table.rows:
                # HTML: label, begin, end[, label, value]
                for k in range(0, len(cells) - 1, 3 if len(cells) >= 5 else 2):
                    label = cells[k].strip().rstrip(":")
                    if label and not _is_num(label):
                        rows.append(Row(label, line, {"begin": _size_bytes(cells[k + 1]),
                                                      "end": _size_bytes(cells[k + 2]) if k + 2 < len(cells) and len(cells) >= 5 and k == 0 else None}))
    if not rows:
        return None
    return make_section(key, block.title, block.line, {"begin": "B", "end": "B"}, rows, block.notes)


def _is_num(s: str) -> bool:
    return parse_number(s).value is not None


def _size_bytes(cell: str) -> float | None:
    s = cell.strip()
    if not s:
        return None
    mult = {"K": 1024.0, "M": 1024.0**2, "G": 1024.0**3, "T": 1024.0**4}.get(s[-1:])
    if mult:
        v = parse_number(s[:-1]).value
        return v * mult if v is not None else None
    return parse_number(s).value


def map_host_cpu(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    sec = simple_table_section(block, key, [Col("name", r"^$", kind="name")] + HOST_CPU_COLS, issues, min_matched=3)
    if sec is None:
        return None
    rows = [Row("host_cpu", r.line, r.values, r.text) for r in sec.rows[:1]]
    m = _SP_HOST_CPU.search(" ".join(block.lines[:3]))
    if m and rows and rows[0].values.get("cpus") is None:
        values = dict(rows[0].values)
        values["cpus"] = float(m.group(1))
        if m.group(2):
            values.update(cores=float(m.group(2)), sockets=float(m.group(3) or 0) or None)
        rows[0] = Row("host_cpu", rows[0].line, values, rows[0].text)
    return make_section(key, block.title, block.line, sec.units, rows, block.notes)


def map_instance_cpu(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    """One row a figure, named as printed: the text report prints each on a line of its own ('% of busy CPU for
    Instance:  98.4'); the HTML one prints one row of three cells under the figures' names ('%Total CPU',
    '%Busy CPU', '%DB time waiting for CPU (Resource Manager)'), which is read across."""
    rows: list[Row] = []
    for table in block.tables:
        names = [c.strip() for c in table.columns]
        for line, cells in table.rows:
            if len(names) == len(cells) and len(names) > 1 and all(n.startswith("%") for n in names) and \
                    all(parse_number(c).value is not None for c in cells):
                rows += [Row(n, line, {"value": parse_number(c).value}) for n, c in zip(names, cells)]
    if rows:
        return make_section(key, block.title, block.line, {"value": "%"}, rows, block.notes)
    return table_or_kv(block, key, ["value"], "%", issues)


def map_memory_stats(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return table_or_kv(block, key, ["begin", "end"], "stat", issues)
