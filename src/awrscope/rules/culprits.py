"""Who causes a finding: the SQL statements, segments and tablespaces the report itself ranks
(SQL ordered by ..., Segments by ..., Tablespace IO Stats), with their share and source line.

A finding names culprits by orders ("sql:cpu", "segments:row_lock_waits", ...) tried in turn;
the first order whose section is printed gives them. When none is printed the finding says which
section it needed: no culprit is ever guessed."""
from __future__ import annotations

import os
import re
from msgspec import Struct

from ..model import Report, Row, Section
from .. import patterns

#: order -> (section key, measure field pattern, unit, what the measure is)
SQL_ORDERS: dict[str, tuple[str, str, str, str]] = {
    "elapsed": ("sql_by_elapsed", r"^(total_)?elaps(e)?d(_time)?_s$", "s", "elapsed time"),
    "cpu": ("sql_by_cpu", r"^(total_)?cpu(_time)?_s$", "s", "CPU time"),
    "user_io": ("sql_by_user_io", r"^(total_iowait_s|user_i_per_o_time_s|user_i_per_o_wait_time_s)$", "s", "user I/O wait"),
    "cluster": ("sql_by_cluster_wait", r"^(total_cluster_s|cluster_wait_time_s)$", "s", "cluster wait"),
    "gets": ("sql_by_gets", r"^(total_gets|buffer_gets)$", "count", "buffer gets"),
    "reads": ("sql_by_reads", r"^(total_reads|physical_reads|physical_rds)$", "count", "physical reads"),
    "executions": ("sql_by_executions", r"^(total_execs|executions)$", "count", "executions"),
    # commit findings: the statements that make transactions (DML, PL/SQL), not the queries between them
    "commits": ("sql_by_executions", r"^(total_execs|executions)$", "count", "executions (DML and PL/SQL)"),
    "parse_calls": ("sql_by_parse_calls", r"^parse_calls$", "count", "parse calls"),
    "version_count": ("sql_by_version_count", r"^(version_count|max_version_count)$", "count", "child cursors"),
    "sharable_memory": ("sql_by_sharable_memory", r"^(sharable_mem_b|max_sharable_memory_kb)$", "stat", "sharable memory"),
    "ash": ("ash_top_sql", r"^pct_activity$", "%", "sampled activity"),
}
#: A statement (a segment, a tablespace) under this share of what its section ranks by (DB time for the time orders, all buffer
#: gets for the gets order, the captured segments' reads, ...) is not named as a finding's culprit: it cannot explain
#: the finding (G07's floor for a Top SQL). A query of 0.1 s is no culprit of 53 s of row lock waits.
MIN_SQL_SHARE_PCT = 1.0

#: A statement that is a query (its text as printed: a SELECT or WITH, after comments and parentheses)
_QUERY = patterns.compile(r"^\s*(?:\(\s*|/\*.*?\*/\s*)*(?:select|with)\b", re.I | re.S)

#: The orders whose measure a PL/SQL call accumulates from the statements it runs (not its executions or parses)
_CUMULATIVE = frozenset({"elapsed", "cpu", "user_io", "cluster", "gets", "reads"})

#: A PL/SQL block or call (its text as printed): its time includes the statements it runs
_PLSQL = patterns.compile(r"^\s*(?:/\*.*?\*/\s*)*(?:begin|declare|call)\b", re.I | re.S)


def is_plsql(text: str | None) -> bool:
    return bool(_PLSQL.match(text or ""))


_SQL_SHARE = patterns.compile(r"^(pct_total|pct_total_parses|percentage_of_total_(gets|reads|execs))$")

#: Segments by ...: the section key is "segments_by_" + order
SEGMENT_ORDERS: dict[str, str] = {
    "db_block_changes": "DB block changes", "physical_writes": "physical writes", "direct_physical_writes": "direct writes",
    "row_lock_waits": "row lock waits", "buffer_busy_waits": "buffer busy waits", "itl_waits": "ITL waits",
    "physical_reads": "physical reads", "logical_reads": "logical reads", "direct_physical_reads": "direct reads",
    "gc_buffer_busy": "gc buffer busy waits", "cr_blocks_received": "CR blocks received",
    "current_blocks_received": "current blocks received", "table_scans": "table scans",
}
_SEG_SKIP = patterns.compile(r"^(obj_num|dataobj_num|pct_.*|percentage_.*)$")
_SEG_SHARE = patterns.compile(r"^(pct_of_capture|pct_total)$")


class Culprit(Struct, frozen=True):
    kind: str  # sql | segment | tablespace | session (an ASH report's blocking session)
    name: str  # SQL id / hash value, OWNER.OBJECT, tablespace name
    detail: str  # module and SQL text excerpt; object type and tablespace
    measure: str
    value: float
    unit: str
    share_pct: float | None  # of DB time for SQL time orders, else of the section's total as printed
    share_of: str
    section: str
    line: int

    def as_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "detail": self.detail, "measure": self.measure,
                "value": self.value, "unit": self.unit,
                "share_pct": None if self.share_pct is None else round(self.share_pct, 2), "share_of": self.share_of,
                "section": self.section, "line": self.line}


def _merged(found: list[Culprit]) -> list[Culprit]:
    """One culprit per name: a global (RAC) or CDB report prints a SQL id or segment once per instance
    or container; their values and shares add up (the first row's line is cited)."""
    by: dict[tuple[str, str], Culprit] = {}
    for c in found:
        k = (c.name, c.detail)
        o = by.get(k)
        if o is None:
            by[k] = c
        else:
            share = None if o.share_pct is None or c.share_pct is None else o.share_pct + c.share_pct
            by[k] = Culprit(o.kind, o.name, o.detail, o.measure, o.value + c.value, o.unit, share, o.share_of, o.section, o.line)
    return sorted(by.values(), key=lambda c: -c.value)


def _field(sec: Section, pattern: str) -> str | None:
    rx = patterns.compile(pattern)
    return next((f for f in sec.units if rx.search(f)), None)


def _excerpt(text: str | None, width: int = 70) -> str:
    t = " ".join((text or "").split())
    return t if len(t) <= width else t[: width - 1] + "…"


def sql(report: Report, order: str, db_time_s: float | None, n: int = 3, floor: float = MIN_SQL_SHARE_PCT) -> list[Culprit]:
    """The statements of ``order`` at or above ``floor``, largest first. A PL/SQL call's time (gets, reads) includes
    the statements it runs, which the list may name beside it ('BEGIN orderentry.neworder' at 55 % of DB time, the
    two statements it runs at 21 and 19 %): its measure says so. It stays named: its own code may hold most of it."""
    key, pattern, unit, what = SQL_ORDERS[order]
    sec = report.sections.get(key)
    if sec is None:
        return []
    f = _field(sec, pattern)
    if f is None:
        return []
    share_f = next((x for x in sec.units if _SQL_SHARE.match(x)), None) if unit != "s" else None
    out = []
    for row in sec.rows:
        v = row.values.get(f)
        if not v or not row.name:
            continue
        if order == "commits" and _QUERY.match(row.text.get("sql_text") or "") and \
                "for update" not in " ".join((row.text.get("sql_text") or "").lower().split()):
            continue  # a query neither changes nor commits anything
        if unit == "s":
            share, of = (100.0 * v / db_time_s if db_time_s else None), "DB time"
        elif unit == "%":  # ASH: the share of sampled activity is the measure itself
            share, of = None, "ASH activity"
        else:
            share, of = (row.values.get(share_f) if share_f else None), f"all {what}"
        module = row.text.get("module")
        detail = "; ".join(x for x in ((f"module {module}" if module else ""), _excerpt(row.text.get("sql_text"))) if x)
        measure = f"{what} (a PL/SQL call: with the statements it runs)" if order in _CUMULATIVE and \
            is_plsql(row.text.get("sql_text")) else what
        out.append(Culprit("sql", row.text.get("sql_id") or row.name, detail, measure, v, unit, share, of, key, row.line))
    return [c for c in _merged(out) if c.share_pct is None or c.share_pct >= floor][:n]


def _segment_name(row: Row) -> tuple[str, str]:
    obj = row.text.get("object_name")
    owner = row.name or ""
    name = f"{owner}.{obj}" if obj and owner else (obj or owner)
    sub = row.text.get("subobject_name")
    if sub and not sub.startswith("**"):
        name += f" ({sub})"
    ts = row.text.get("tablespace_name") or row.text.get("tablespace")
    detail = " ".join(x for x in (row.text.get("obj_type", "").lower(), f"in {ts}" if ts else "") if x)
    return name, detail


#: The instance statistic a Segments by ... list is a part of: no segment can count more than the instance did
_SEGMENT_TOTALS = {"db_block_changes": "db block changes", "physical_reads": "physical reads",
                   "physical_writes": "physical writes", "logical_reads": "session logical reads",
                   "direct_physical_reads": "physical reads direct", "direct_physical_writes": "physical writes direct"}


def segments_beyond_total(report: Report, order: str) -> str | None:
    """Why a Segments by ... list names no culprit, when its first segment counts more than the instance's own
    statistic for the window (an object's counters carried over, dropped and recreated, or counted apart from the
    instance's): the two disagree, and a part cannot exceed its whole."""
    sec, stat = report.sections.get("segments_by_" + order), _SEGMENT_TOTALS.get(order)
    ia = report.sections.get("instance_activity")
    total = ia.row(stat) if stat and ia is not None else None
    if sec is None or total is None or not total.values.get("total"):
        return None
    numeric = [x for x, u in sec.units.items() if u not in ("text", "%") and not _SEG_SKIP.match(x)]
    top = max((r for r in sec.rows if numeric and r.values.get(numeric[-1])), key=lambda r: r.values[numeric[-1]],
              default=None)
    if top is None or top.values[numeric[-1]] <= 1.05 * total.values["total"]:
        return None
    name, _ = _segment_name(top)
    return (f"Segments by {SEGMENT_ORDERS[order]} prints {name} at {top.values[numeric[-1]]:,.0f} (line {top.line}), more "
            f"than the instance's '{stat}' for the whole window, {total.values['total']:,.0f} (line {total.line}): the "
            "list does not agree with the instance's count, so it names no culprit")


def segments(report: Report, order: str, n: int = 3, floor: float = MIN_SQL_SHARE_PCT) -> list[Culprit]:
    key = "segments_by_" + order
    sec = report.sections.get(key)
    if sec is None:
        return []
    # the measure is the last numeric column before the share (a blank Subobject column reads as numeric)
    numeric = [x for x, u in sec.units.items() if u not in ("text", "%") and not _SEG_SKIP.match(x)]
    f = numeric[-1] if numeric else None
    share_f = next((x for x in sec.units if _SEG_SHARE.match(x)), None)
    if f is None:
        return []
    out = []
    for row in sec.rows:
        v = row.values.get(f)
        if not v:
            continue
        name, detail = _segment_name(row)
        # '%Total' (11g) is of the instance's total ('Total Physical Reads: ...'); '% of Capture' (12c+) of the
        # segments the report captured
        of = "captured segments" if share_f == "pct_of_capture" else f"all {SEGMENT_ORDERS[order]}"
        out.append(Culprit("segment", name, detail, SEGMENT_ORDERS[order], v, "count",
                           row.values.get(share_f) if share_f else None, of, key, row.line))
    return [c for c in _merged(out) if c.share_pct is None or c.share_pct >= floor][:n]


def implausible_read_ms(report: Report, read_ms: float | None) -> float | None:
    """The foreground single-block read average when a printed tablespace or file read latency is not plausible
    beside it (a second or more a read, a hundred times that average: a 12.1 report printed 'Av Rd(ms)' 18,196.6
    beside 'db file sequential read' at 2.45 ms), else None."""
    if read_ms is None or read_ms < 1000.0:
        return None
    for key in ("wait_events_fg", "wait_events", "top_events"):
        sec = report.sections.get(key)
        row = sec.row("db file sequential read") if sec is not None else None
        avg = row.values.get("avg_wait_ms") if row is not None else None
        if avg:
            return avg if read_ms > 100.0 * avg else None
    return None


def tablespaces(report: Report, measure: str = "writes", n: int = 3) -> list[Culprit]:
    """Tablespaces by writes or reads, or by read time (reads x Av Rd(ms): where slow reads are; a latency not
    plausible beside the single-block reads' is left out)."""
    sec = report.sections.get("tablespace_io")
    if sec is None:
        return []
    if measure == "read_time":
        rows = [(r, r.values["reads"] * r.values["read_ms"] / 1000.0) for r in sec.rows
                if r.name and r.values.get("reads") and r.values.get("read_ms")
                and implausible_read_ms(report, r.values["read_ms"]) is None]
        unit, what = "s", "read time (reads x Av Rd ms)"
    else:
        rows = [(r, r.values.get(measure)) for r in sec.rows if r.name and r.values.get(measure)]
        unit, what = "count", measure
    total = sum(v for _, v in rows)
    rows.sort(key=lambda x: -x[1])
    return [Culprit("tablespace", r.name, f"{r.values['read_ms']:g} ms per read" if measure == "read_time" else "",
                    what, v, unit, 100.0 * v / total if total else None, "all tablespaces", "tablespace_io", r.line)
            for r, v in rows[:n] if not total or 100.0 * v / total >= MIN_SQL_SHARE_PCT]  # no culprit at 0 %


def _section_title(order: str) -> str:
    kind, _, what = order.partition(":")
    if kind == "sql":
        return "SQL ordered by " + SQL_ORDERS[what][3]
    if kind == "segments":
        return "Segments by " + SEGMENT_ORDERS[what]
    return "Tablespace IO Stats"  # also for read_time


def find(report: Report, orders: tuple[str, ...], db_time_s: float | None, kinds: int = 2) -> tuple[list[Culprit], str | None]:
    """Culprits by the first order of each kind (sql, segments, tablespace) the report prints, for
    at most ``kinds`` kinds in the order given (where and who: the slow tablespace and the SQL
    reading it); when none is named, why (:func:`_why_none`)."""
    if report.kind == "ash":  # an ASH report ranks its SQL by sampled activity only
        orders = tuple(o for o in orders if not o.startswith("sql:")) + ("sql:ash",)
    found: list[Culprit] = []
    done: set[str] = set()
    doubts: list[str] = []
    for order in orders:
        kind, _, what = order.partition(":")
        if kind in done:
            continue
        if kind == "sql":
            got = sql(report, what, db_time_s)
        elif kind == "segments":
            doubt = segments_beyond_total(report, what)
            if doubt:
                doubts.append(doubt)
            got = [] if doubt else segments(report, what)
        else:
            got = tablespaces(report, what or "writes")
        if got:
            found += got
            done.add(kind)
            if len(done) >= kinds:
                break
    return (found, None) if found else ([], _why_none(report, orders, db_time_s, doubts))


def _why_none(report: Report, orders: tuple[str, ...], db_time_s: float | None, doubts: list[str]) -> str:
    """Why no culprit is named: a list that disagrees with the instance's count, lists whose entries are all under
    the floor, a list of queries only for a commit finding, or the sections the report does not print."""
    if doubts:
        return "; ".join(doubts)
    small = [o for o in orders if (o.startswith("sql:") and sql(report, o[4:], db_time_s, 1, floor=0.0))
             or (o.startswith("segments:") and segments(report, o[9:], 1, floor=0.0))]
    if small:
        return (f"nothing in {' or '.join(_section_title(o) for o in small)} reaches {MIN_SQL_SHARE_PCT:g} % of the "
                "total it is ranked by: none explains this finding")
    if "sql:commits" in orders and report.sections.get(SQL_ORDERS["commits"][0]) is not None:
        return "SQL ordered by Executions lists only queries: no statement there changes data or commits"
    return "needs " + " or ".join(_section_title(o) for o in orders) + " (not printed in this report)"


def ash_objects_by_event(ash: Report, n: int = 3) -> dict[str, list[Culprit]]:
    """An ASH report's Top DB Objects by the event each object was waited on most: event -> culprits."""
    out: dict[str, list[Culprit]] = {}
    for row in ash.sections.get("ash_top_objects") or ():
        ev, pct = (row.text.get("event") or "").lower(), row.values.get("pct_event") or row.values.get("pct_activity")
        if not ev or not pct or not row.name:
            continue
        detail = "; ".join(x for x in (f"in {row.text['tablespace']}" if row.text.get("tablespace") else "",
                                       f"waiting on {row.text.get('event')}") if x)
        out.setdefault(ev, []).append(Culprit("segment", row.name, detail, "sampled activity on the event", pct, "%",
                                              None, "ASH activity", "ash_top_objects", row.line))
    return {k: sorted(v, key=lambda c: -c.value)[:n] for k, v in out.items()}


_PROCESS = patterns.compile(r"\(([A-Z][A-Z0-9]{1,5})\)\s*$")  # 'oracle@helicon (LGWR)' -> LGWR


def ash_blockers_by_event(ash: Report, n: int = 3) -> dict[str, list[Culprit]]:
    """An ASH report's Top Blocking Sessions by the event they caused: event -> culprits (the session, its
    process or user, and in how many samples it was itself active)."""
    out: dict[str, list[Culprit]] = {}
    for row in ash.sections.get("ash_top_blockers") or ():
        ev, pct = (row.text.get("event") or "").lower(), row.values.get("pct_event") or row.values.get("pct_activity")
        if not ev or not pct or not row.name:
            continue
        proc = _PROCESS.search(row.text.get("program") or "")
        user, program = row.text.get("user") or "", row.text.get("program") or ""
        unknown = "NOT FOUND" in user.upper() or "NOT FOUND" in program.upper()
        who = proc.group(1) if proc else ("session" if unknown or not user else user)
        # a blocker ASH did not sample here (another instance's, or idle): Oracle prints '** NOT FOUND **'
        detail = "; ".join(x for x in ("not in this report's samples (Oracle: BLOCKING SESSION NOT FOUND)" if unknown
                                       else f"{user} {program}".strip(),
                                       f"causing {row.text.get('event')}",
                                       f"itself active in {row.text['samples_active']} samples"
                                       if row.text.get("samples_active") and not unknown else "") if x)
        out.setdefault(ev, []).append(Culprit("session", f"{who} (sid {row.name})" if who != "session" else f"sid {row.name}",
                                              detail,
                                              "of the activity blocked in the event", pct, "%", None, "ASH activity",
                                              "ash_top_blockers", row.line))
    return {k: sorted(v, key=lambda c: -c.value)[:n] for k, v in out.items()}


def ash_sql_by_event(ash: Report, n: int = 3) -> dict[str, list[Culprit]]:
    """An ASH report's Top SQL by the event each statement waited on most: event -> culprits. In an AWR report a
    statement whose ASH row prints no text takes it from the report's SQL ordered by ... lists."""
    sec = ash.sections.get("ash_top_sql")
    out: dict[str, list[Culprit]] = {}
    texts: dict[str, str] = {}
    if ash.kind != "ash" and sec is not None:
        for key, listed in ash.sections.items():
            if key.startswith("sql_by_"):
                for r in listed.rows:
                    if r.text.get("sql_text"):
                        texts.setdefault(r.text.get("sql_id") or r.name or "", r.text["sql_text"])
    for row in sec or ():
        ev, pct = (row.text.get("event") or "").lower(), row.values.get("pct_event") or row.values.get("pct_activity")
        if not ev or not pct or not row.name:
            continue
        origin = (f"from ASH report {os.path.basename(ash.source_path or '')}".rstrip() if ash.kind == "ash" else
                  "ASH samples of this report")
        sql_text = row.text.get("sql_text") or texts.get(row.text.get("sql_id") or row.name)
        detail = "; ".join(x for x in (origin, f"waiting on {row.text.get('event')}", _excerpt(sql_text)) if x)
        out.setdefault(ev, []).append(Culprit("sql", row.text.get("sql_id") or row.name, detail, "sampled activity on the event",
                                              pct, "%", None, "ASH activity", "ash_top_sql", row.line))
    return {k: sorted(v, key=lambda c: -c.value)[:n] for k, v in out.items()}
