"""Wait-event sections: Top-N timed events, wait events (system-wide,
foreground, background), wait classes, time model, and histograms."""
from __future__ import annotations

import re

from ....model import ParseIssue, Row, Section, make_section
from ....oracle.events import canonical_event
from ...numbers import parse_number
from ..raw import Block
from .common import Col, match_columns, simple_table_section, squash

EVENT_COLS = [
    Col("name", r"^(event|eventname|statistic)$", kind="name"),
    Col("waits", r"^(total)?waits$|^waits$"),
    Col("timeouts", r"^timeouts$"),
    Col("pct_timeouts", r"%time-?outs|%timeouts|^%time$", "%"),
    # 'Tota Time' (11.2.0.4 4-char column), 'Time (s)', 'Total Wait Time (s|sec|cs)', 'Wait Time (cs)'
    Col("time_s", r"^(total)?(wait)?time\(|^totatime$|^(total)?(wait)?time\(?s(ec)?\)?$|^totalwaittime|^waittime", "s"),
    Col("avg_wait_ms", r"avg.*wait|wait.*avg|^\(ms\)$|^avg\(ms\)$|^avg.*\(ms\)$", "ms"),
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


def _fix_event(name: str) -> str:
    return canonical_event(name)


def map_events(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, EVENT_COLS, issues, name_fix=_fix_event, min_matched=3)


def map_wait_classes(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, WAIT_CLASS_COLS, issues, min_matched=3)


def map_time_model(block: Block, key: str, issues: list[ParseIssue]) -> Section | None:
    return simple_table_section(block, key, TIME_MODEL_COLS, issues, min_matched=2)


# -- histograms ----------------------------------------------------------------

_BUCKET = re.compile(r"^(<=|>=|<|>)\s*(\d+(?:\.\d+)?|1/\d+)\s*(ns|us|u|ms|s|m|h|hr|min)?$")
_BUCKET_TAIL = re.compile(r"(<=|>=|<|>)\s?(\d+(?:\.\d+)?|1/\d+)\s*(ns|us|u|ms|s|m|h|hr|min)?$")
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
            rows.append(Row(canonical_event(name), line, values))
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
