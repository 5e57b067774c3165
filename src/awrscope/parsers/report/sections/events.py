"""Wait-event sections: Top-N timed events, wait events (system-wide,
foreground, background), wait classes, time model, and histograms."""
from __future__ import annotations


from ....model import ParseIssue, Row, Section, make_section
from ....oracle.events import canonical_event, is_idle
from ...numbers import parse_number
from ..raw import Block
from .common import Col, match_columns, name_cut_width, simple_table_section, squash
from .... import patterns

EVENT_COLS = [
    Col("name", r"^(event|eventname|statistic)$", kind="name"),
    Col("waits", r"^(total)?waits$|^waits$"),
    Col("timeouts", r"^timeouts$"),
    Col("pct_timeouts", r"%time-?outs|%timeouts|^%time$", "%"),
    # 'Tota Time' (11.2.0.4 4-char column), 'Time (s)', 'Total Wait Time (s|sec|cs)', 'Wait Time (cs)'
    Col("time_s", r"^(total)?(wait)?time\(|^totatime$|^(total)?(wait)?time\(?s(ec)?\)?$|^totalwaittime|^waittime", "s"),
    # compare-period reports print "Avg Time" with the unit in each cell (2.14ms, 1.17us)
    Col("avg_wait_ms", r"avg.*wait|wait.*avg|^\(ms\)$|^avg\(ms\)$|^avg.*\(ms\)$|^avgtime$", "ms"),
    Col("waits_per_txn", r"waits/txn|/txn", "1/txn"),
    Col("waits_per_s", r"^#waits/sec", "1/s"),  # compare-period reports
    Col("pct_db_time", r"%dbtime|%ofdbtime|^percenttotaldbtime$", "%"),
    Col("pct_bg_time", r"%bgtime", "%"),
    Col("pct_total_call_time", r"%totalcalltime|totalcalltime|%total$|calltime", "%"),
    Col("pct_total_ela_time", r"%totalelatime|elatime", "%"),
    Col("pct_total_wait_time", r"%totalwttime|wttime", "%"),
    Col("wait_class", r"^waitclass$|^class$", kind="text"),
]

WAIT_CLASS_COLS = [
    Col("name", r"^waitclass$", kind="name"),
    Col("waits", r"^waits$"),
    Col("pct_timeouts", r"%time-?outs", "%"),
    Col("time_s", r"^(total)?(wait)?time\(s(ec)?\)$|^totalwaittime", "s"),
    Col("avg_wait_ms", r"^avg.*wait|avgwait|^\(ms\)$", "ms"),
    Col("waits_per_txn", r"/txn", "1/txn"),
    Col("pct_db_time", r"%dbtime", "%"),
    Col("aas", r"activesessions|avgactive", "sessions"),
]

TIME_MODEL_COLS = [
    Col("name", r"^statisticname$|^statistic$", kind="name"),
    Col("time_s", r"^time\(s\)$|^time\(s", "s"),
    Col("pct_db_time", r"%ofdbtime|^%dbtime$", "%"),  # Statspack: '% DB time'
    Col("pct_total_cpu_time", r"%oftotalcputime", "%"),
]


def _fix_event(name: str, cut_at: int | None) -> str:
    return canonical_event(name, cut_at)


def map_events(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    sec = simple_table_section(block, key, EVENT_COLS, issues, name_fix=_fix_event, min_matched=3)
    if sec is None or key == "top_events":
        return sec
    rows = _mark_idle_block(list(sec.rows), sec.notes)
    _warn_duplicate_names(rows, key, issues)
    return make_section(sec.key, sec.title, sec.line, sec.units, rows, sec.notes)


# Events idle in every version, and printed in the idle block of every wait event table: the
# anchors from which the idle block is found. Other events' idleness varies by version and tool
# (Statspack keeps its own idle list), so it is read from where the report prints them.
IDLE_ANCHORS = frozenset(e.lower() for e in (
    "SQL*Net message from client", "rdbms ipc message", "pmon timer", "smon timer", "dispatcher timer",
    "jobq slave wait", "PL/SQL lock timer", "Streams AQ: qmn slave idle wait", "Streams AQ: qmn coordinator idle wait",
    "Space Manager: slave idle wait", "DIAG idle wait", "PX Idle Wait", "gcs remote message", "ges remote message",
    "virtual circuit wait", "Streams AQ: waiting for time management or cleanup tasks", "class slave wait",
    "heartbeat monitor sleep", "VKTM Logical Idle Wait", "wait for unread message on broadcast channel"))


def _mark_idle_block(rows: list[Row], notes) -> list[Row]:
    """The report's own idle classification. Wait event tables print the idle events last
    ("ordered by wait time desc, waits desc (idle events last)"), sorted by time among
    themselves, and AWR 11g+ leaves their % DB time blank. The block is found from its first
    anchor (an event idle in every version, e.g. ``SQL*Net message from client``), extended
    back over catalogued idle events printed before it in time order. Rows in the block are
    idle whatever our catalogue says (LogMiner, Streams, PX credit waits of other versions);
    catalogued idle events printed before the block are not idle in this report (Statspack
    and 10g count ``PX Deq Credit: send blkd`` as DB time)."""
    # the block is sorted by time among itself: an anchor followed by a longer wait is printed among
    # the busy events (Statspack 11.2 counts 'PL/SQL lock timer' as busy), so the next anchor is tried
    anchor = next((k for k, r in enumerate(rows) if r.name and " ".join(r.name.lower().split()) in IDLE_ANCHORS
                   and _sorted_by_time(rows[k:])), None)
    if anchor is None:
        return rows
    says_idle_last = any("idle events last" in n.lower() for n in notes)
    has_pct = any(r.values.get("pct_db_time") is not None for r in rows[:anchor])
    if not (says_idle_last or (has_pct and all(r.values.get("pct_db_time") is None for r in rows[anchor:]))):
        return rows
    start = anchor
    while start > 0 and rows[start - 1].name and is_idle(rows[start - 1].name, rows[start - 1].text.get("wait_class")) \
            and (rows[start - 1].values.get("time_s") or 0.0) >= (rows[start].values.get("time_s") or 0.0):
        start -= 1
    why = "in the report's idle block (idle events last)" if says_idle_last else "blank % DB time, after the first idle event"
    out = []
    for k, r in enumerate(rows):
        if not r.name or r.text.get("wait_class"):
            out.append(r)
        elif k >= start:
            out.append(Row(r.name, r.line, r.values, {**r.text, "wait_class": "Idle", "idle_by": why}))
        elif is_idle(r.name):
            out.append(Row(r.name, r.line, r.values, {**r.text, "not_idle_by": "printed before the report's idle block"}))
        else:
            out.append(r)
    return out


def _sorted_by_time(rows: list[Row]) -> bool:
    times = [r.values.get("time_s") for r in rows if r.values.get("time_s") is not None]
    return all(a >= b for a, b in zip(times, times[1:]))


def _warn_duplicate_names(rows: list[Row], key: str, issues: list[ParseIssue]) -> None:
    """Two rows of one event table under one name are never merged silently: lookups by name
    return the first (the larger, as tables are ordered by time) and the report says so."""
    seen: dict[str, Row] = {}
    for r in rows:
        if not r.name:
            continue
        low = " ".join(r.name.lower().split())
        first = seen.setdefault(low, r)
        if first is not r and first.values != r.values:
            issues.append(ParseIssue("warning", key, r.line, f"two rows named '{r.name}' (lines {first.line} and "
                                     f"{r.line}): lookups by name use line {first.line}; the other is not counted twice"))


def map_wait_classes(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, WAIT_CLASS_COLS, issues, min_matched=3)


def map_time_model(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, TIME_MODEL_COLS, issues, min_matched=2)


# -- histograms ----------------------------------------------------------------

_BUCKET = patterns.compile(r"^(<=|>=|<|>)\s*(\d+(?:\.\d+)?|1/\d+)\s*(ns|us|u|ms|s|m|h|hr|min)?$")
_BUCKET_TAIL = patterns.compile(r"(<=|>=|<|>)\s?(\d+(?:\.\d+)?|1/\d+)\s*(ns|us|u|ms|s|m|h|hr|min)?$")
_UNIT_US = {"ns": 1e-3, "us": 1.0, "u": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "min": 60e6, "h": 3600e6, "hr": 3600e6}


def bucket_bound_us(header: str) -> tuple[str, float] | None:
    """``<8ms`` -> ('<', 8000.0); ``<=1s`` -> ('<=', 1e6); ``>=2m`` -> ('>=', 120e6).

    Oracle notes say histogram 's' is 1024 ms and 'ms' 1024 us: we keep the
    printed bounds, which is what the report means to show."""
    h = header.replace(" ", "")
    m = _BUCKET.match(h)
    if not m:
        return None
    op, num, unit = m.groups()
    if "/" in num:
        a, b = num.split("/")
        val = float(a) / float(b)
    else:
        val = float(num)
    return op, val * _UNIT_US[unit or "ms"]


def _resolve_buckets(found: list[tuple[int, str, float, str | None]]) -> list[tuple[int, str, float]]:
    """Bucket headers are cut to 5 characters (12c+): '<512' is '<512us' before
    '<1ms', '>=512' repeats the last bound '<512u', '>=32m' is '>=32ms' after
    '<32ms', '<128u' is '<128us'. A header without a (complete) unit takes the
    unit that keeps the bounds ascending, and a last '>=' bound equal to the
    bound before it takes that bound's unit."""
    out: list[tuple[int, str, float]] = []
    for k, (idx, op, num, unit) in enumerate(found):
        if unit is None or unit == "m":
            prev = out[-1][2] if out else None
            nxt = None
            if k + 1 < len(found) and found[k + 1][3] not in (None, "m"):
                nxt = found[k + 1][2] * _UNIT_US[found[k + 1][3]]
            if op.startswith(">") and out and found[k - 1][2] == num:
                us = prev
            else:
                cands = ["ms", "min"] if unit == "m" else [found[k - 1][3] if k else None, "us", "ms", "s"]
                us = None
                for c in cands:
                    if c is None or c == "m":
                        continue
                    v = num * _UNIT_US[c]
                    if (prev is None or v >= prev) and (nxt is None or v < nxt):
                        us = v
                        break
                if us is None:
                    us = num * _UNIT_US[unit or "ms"]
        else:
            us = num * _UNIT_US[unit]
        out.append((idx, op, us))
    return out


def map_histogram(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    rows: list[Row] = []
    units: dict[str, str] = {"total_waits": "count"}
    for table in block.tables:
        found: list[tuple[int, str, float, str | None]] = []
        total_idx = None
        for idx, name in enumerate(table.columns):
            # the bound ends the (stacked) header; '< 1m' and '< 2m' carry a space
            m = _BUCKET_TAIL.search(name) if idx > 0 else None
            if m is not None and m.start() > 0 and not name[m.start() - 1].isspace():
                m = None
            if m is not None:
                op, num, unit = m.groups()
                val = float(num.split("/")[0]) / float(num.split("/")[1]) if "/" in num else float(num)
                found.append((idx, op, val, unit))
            elif idx > 0 and "wait" in squash(name):
                total_idx = idx
        buckets: list[tuple[int, str]] = []
        for idx, op, us in _resolve_buckets(found):
            label = f"{op}{_fmt_us(us)}"
            buckets.append((idx, label))
            units[label] = "%"
        if not buckets:
            continue
        cut_at = name_cut_width(block, table, 0)
        for line, cells in table.rows:
            name = cells[0].strip()
            if not name:
                continue
            values: dict[str, float | None] = {}
            if total_idx is not None and total_idx < len(cells):
                values["total_waits"] = parse_number(cells[total_idx]).value
            for idx, label in buckets:
                if idx < len(cells):
                    v = parse_number(cells[idx]).value
                    values[label] = v
            rows.append(Row(canonical_event(name, cut_at), line, values))
    if not rows:
        return None
    return make_section(key, block.title, block.line, units, rows, block.notes)


def _fmt_us(us: float) -> str:
    if us >= 1e6 and us % 1e6 == 0:
        return f"{us / 1e6:g}s"
    if us >= 1e3 and (us % 1e3 == 0 or us >= 1e5):
        return f"{us / 1e3:g}ms"
    return f"{us:g}us"


__all__ = ["map_events", "map_wait_classes", "map_time_model", "map_histogram", "match_columns"]
