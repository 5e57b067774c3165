"""Session-level findings from a trace (T01...): the shape of awrscope's findings (id, slug, title,
severity, confidence, impact, evidence with trace line numbers, recommendation, confirm, refute), sized
by the share of a base they can address: the traced response time R, or for T04 and T05 the part of
the session's ledger (ledger.py) they are judged against, so idle minutes in a trace do not hide them."""
from __future__ import annotations

from msgspec import Struct
from typing import Callable

from ..rules.base import severity_for
from .ledger import build_ledger, leaf
from .model import OCT_TRUNCATE
from .reader import TraceStats

TRUNCATE_EVENTS = ("local write wait", "enq: RO - fast object reuse", "enq: CI - contention")


class TraceRule(Struct, frozen=True):
    id: str
    slug: str
    title: str
    doc: str
    func: Callable
    thresholds: dict


TRACE_RULES: dict[str, TraceRule] = {}


def trace_rule(id: str, slug: str, title: str, **thresholds):
    def deco(f):
        TRACE_RULES[id] = TraceRule(id, slug, title, (f.__doc__ or "").strip(), f, thresholds)
        return f
    return deco


def _ev(metric: str, value, unit: str, lines=(), threshold: str | None = None, note: str | None = None) -> dict:
    return {"metric": metric, "value": None if value is None else round(value, 6), "unit": unit,
            "threshold": threshold, "source": [{"line": n} for n in dict.fromkeys(lines) if n], "note": note}


def _finding(rule: TraceRule, impact_s: float, r_s: float, evidence: list[dict], recommendation: str,
             confirm: str = "", refute: str = "", confidence: str = "high", title: str | None = None,
             base: tuple[str, float] | None = None) -> dict:
    """A finding; its severity comes from its share of ``base`` (name, seconds), R when not given: the
    time the rule was judged against, so severity and firing agree."""
    pct = 100.0 * impact_s / r_s if r_s else None
    base_name, base_s = base or ("response time R", r_s)
    base_pct = 100.0 * impact_s / base_s if base_s else None
    return {"id": rule.id, "slug": rule.slug, "title": title or rule.title,
            "severity": severity_for(base_pct), "confidence": confidence,
            "impact": {"seconds": round(impact_s, 6), "pct_response_time": None if pct is None else round(pct, 3),
                       "base": base_name, "base_s": round(base_s, 6),
                       "pct_base": None if base_pct is None else round(base_pct, 3)},
            "evidence": evidence, "recommendation": recommendation, "confirm": confirm, "refute": refute}


@trace_rule("T01", "log-file-sync-per-commit", "Commits wait on log file sync", min_pct=2.0)
def t01(st: TraceStats, r_s: float, th: dict) -> dict | None:
    """Every commit that wrote redo (XCTEND rlbk=0, rd_only=0) waits for LGWR on 'log file sync'. The
    profile shows what the commits cost this session: waits per commit, time per commit, share of R."""
    lfs = st.events.get("log file sync")
    if lfs is None or not r_s:
        return None
    s = lfs.total_us / 1e6
    if 100 * s / r_s < th["min_pct"]:
        return None
    per_commit = lfs.total_us / 1e3 / st.commits if st.commits else None
    ev = [_ev("log file sync time", s, "s", [lfs.first_line, lfs.max_line]),
          _ev("log file sync waits", lfs.count, "waits"),
          _ev("commits (XCTEND rd_only=0)", st.commits, "commits", st.xctend_lines[:3]),
          _ev("log file sync per commit", per_commit, "ms", note=None if st.commits else
              "no XCTEND with rd_only=0: commits inside PL/SQL or by the client library are not written as XCTEND"),
          _ev("log file sync average", lfs.total_us / lfs.count / 1e3, "ms", [lfs.max_line],
              threshold="> 2 ms on modern storage: the redo write is slow")]
    rule = TRACE_RULES["T01"]
    return _finding(rule, s, r_s, ev,
                    "Commit less often (batch the work into fewer transactions: each commit waits once), or make "
                    "the redo write faster (LGWR I/O: redo on low-latency storage, no other files on it). "
                    "Run `awrscope analyze` on an AWR report of the same time for LGWR's side (R01-R03).",
                    confirm="log file parallel write in the LGWR trace / AWR close to the foreground average",
                    refute="few commits with a long average wait: LGWR was starved of CPU or posting, not slow I/O")


@trace_rule("T02", "truncate-object-checkpoint", "TRUNCATE waits for its object checkpoint (local write wait, enq: RO)",
            min_pct=1.0)
def t02(st: TraceStats, r_s: float, th: dict) -> dict | None:
    """TRUNCATE (and DROP) first writes the object's dirty buffers (local write wait) under the RO
    enqueue; concurrent truncates queue on 'enq: RO - fast object reuse' (seed 002: 31 % of a batch)."""
    total = sum(st.events[e].total_us for e in TRUNCATE_EVENTS if e in st.events) / 1e6
    if not total or not r_s or 100 * total / r_s < th["min_pct"]:
        return None
    truncs = [s for s in st.statements.values() if s.oct in OCT_TRUNCATE]
    ev = [_ev(f"{e} time", st.events[e].total_us / 1e6, "s", [st.events[e].first_line, st.events[e].max_line],
              note=f"{st.events[e].count} waits, max {st.events[e].max_us / 1e3:.1f} ms")
          for e in TRUNCATE_EVENTS if e in st.events]
    n_exec = 0
    for s in sorted(truncs, key=lambda s: -s.e_us)[:5]:
        w = sum(s.waits_in.get(e, [0, 0.0])[1] for e in TRUNCATE_EVENTS) / 1e6
        n_exec += s.executions
        exec_cs = s.calls.get("EXEC")
        ev.append(_ev(f"per TRUNCATE execution ({s.key})", w / s.executions if s.executions else None, "s",
                      [s.line, exec_cs.max_line if exec_cs else 0],
                      note=f"{s.executions} executions, {w:.4f} s of checkpoint waits, slowest EXEC "
                           f"{(exec_cs.max_e_us if exec_cs else 0) / 1e6:.4f} s: {s.text[:80]!r}"))
    if not truncs:
        ev.append(_ev("TRUNCATE statements (oct=85)", 0, "statements",
                      note="no TRUNCATE parsed in the trace: a DROP, or a TRUNCATE parsed before tracing began"))
    rule = TRACE_RULES["T02"]
    return _finding(rule, total, r_s, ev,
                    "Use global temporary tables for working storage (no object checkpoint at all); otherwise put "
                    "the truncated tables in a tablespace with a larger block size or uniform extents (fewer "
                    "buffers to scan), keep the buffer cache no larger than needed, and do not run many "
                    "truncating streams at once: truncates serialise on the RO enqueue (seed 002).",
                    confirm="'enq: RO - fast object reuse' grows with the number of concurrent streams",
                    refute="local write wait only with a single stream and slow datafile writes: DBWR I/O first",
                    confidence="high" if truncs else "medium")


@trace_rule("T03", "direct-path-write-temp", "Sorts and hash joins spill to TEMP (direct path write temp)",
            min_pct=2.0)
def t03(st: TraceStats, r_s: float, th: dict) -> dict | None:
    """Work areas too small for a sort, hash join or group by write to TEMP: direct path write temp
    (and read back with direct path read temp), per statement."""
    names = [e for e in ("direct path write temp", "direct path read temp") if e in st.events]
    total = sum(st.events[e].total_us for e in names) / 1e6
    if not total or not r_s or 100 * total / r_s < th["min_pct"]:
        return None
    ev = [_ev(f"{e} time", st.events[e].total_us / 1e6, "s", [st.events[e].first_line, st.events[e].max_line],
              note=f"{st.events[e].count} waits") for e in names]
    per = []
    for s in st.statements.values():
        w = sum(s.waits_in.get(e, [0, 0.0])[1] + s.waits_between.get(e, [0, 0.0])[1] for e in names)
        if w:
            per.append((w, s))
    for w, s in sorted(per, key=lambda x: -x[0])[:5]:
        ev.append(_ev(f"TEMP I/O of {s.key}", w / 1e6, "s", [s.line],
                      note=f"{s.executions} executions: {s.text[:80]!r}"))
    rule = TRACE_RULES["T03"]
    return _finding(rule, total, r_s, ev,
                    "Give the statement's work area enough memory (pga_aggregate_target, or a manual "
                    "sort_area_size/hash_area_size for this session), or change the plan so it sorts or hashes "
                    "less (an index for ORDER BY, a join order with the small row source hashed).",
                    confirm="v$sql_workarea for the statement: one-pass or multi-pass executions",
                    refute="TEMP writes by a deliberate large sort of a batch: check the plan's estimated rows")


@trace_rule("T04", "unaccounted-for-time", "Unaccounted-for time is a large part of the time in database calls",
            min_pct=10.0, min_s=0.1)
def t04(st: TraceStats, r_s: float, th: dict) -> dict | None:
    """Time in database calls that neither CPU nor waits explain: waiting for CPU (run queue), un-instrumented
    code, time between the trace's lines (a paused or throttled process), or a trace lacking waits (level 1).
    Judged against the time in calls, not R: a trace that idles for minutes between calls would
    otherwise hide any amount of it. Below ``min_s`` it is not worth a look whatever its share (a trace
    of a few milliseconds in calls, idle otherwise, leaves a few milliseconds unexplained)."""
    led = build_ledger(st)
    base = led["in_calls_s"] or 0.0
    u = leaf(led, "unaccounted")["seconds"]
    if base <= 0 or u < th["min_s"] or 100 * u / base < th["min_pct"]:
        return None
    cpu = sum(c.c_us for c in st.calls.values()) + sum(c.c_us for c in st.orphan_calls.values())
    # where the unexplained time lies: inside the dep=0 calls' e, or between call lines with no wait line
    in_e = (sum(c.e_us for c in st.calls.values()) - sum(c.c_us for c in st.calls.values()) - st.inside_us) / 1e6
    ev = [_ev("unaccounted-for time", u, "s", [st.first_tim_line, st.last_tim_line],
              threshold=f">= {th['min_pct']} % of the time in database calls and >= {th['min_s']} s"),
          _ev("time in database calls", base, "s", note=f"R {r_s:.6f} s less {led['between_calls_s']:.6f} s of "
              "SQL*Net message from client between calls (round trips and think time)"),
          _ev("unaccounted-for share of the time in calls", 100 * u / base, "%"),
          _ev("inside dep=0 calls (e - c - waits inside)", in_e, "s"),
          _ev("between call lines, explained by no line", u - in_e, "s"),
          _ev("CPU of dep=0 calls", cpu / 1e6, "s"),
          _ev("waits in calls", base - u - cpu / 1e6, "s", note=f"{len(st.events)} events")]
    conf = "medium"
    if not st.events:
        ev.append(_ev("WAIT lines", 0, "lines", note="no WAIT line: the trace was taken without waits (level 1 or 4)"))
        conf = "low"
    rule = TRACE_RULES["T04"]
    return _finding(rule, max(0.0, u), r_s, ev,
                    "Inside the calls (e well above c plus the waits): check CPU saturation on the host at the "
                    "time (run queue: vmstat, AWR 'OS load'). Between call lines: look for a stopped or throttled "
                    "process, or recursive work whose dep=0 call is not in the file. Without WAIT lines the "
                    "client's time is in it too: trace with waits (level 8 or 12).",
                    confirm="a run queue longer than the CPU count while the trace ran",
                    refute="a quiet host: then the time was spent outside Oracle's instrumentation",
                    confidence=conf, base=("time in database calls", base))


@trace_rule("T05", "round-trip-latency", "Round trips to the client take much of the response time",
            min_pct=25.0, min_round_trips=10)
def t05(st: TraceStats, r_s: float, th: dict) -> dict | None:
    """Many short SQL*Net message from client gaps inside one fetch loop are latency, not idleness: each
    FETCH costs a network round trip plus the client's work on one array of rows. Judged against the
    response time excluding think time (the session's busy time, in calls or on the wire)."""
    rt = st.round_trip
    led = build_ledger(st)
    active = led["response_excl_think_s"] or 0.0
    if rt.count < th["min_round_trips"] or active <= 0:
        return None
    s = rt.total_us / 1e6
    share = 100 * s / active
    if share < th["min_pct"]:
        return None
    avg_ms = rt.total_us / rt.count / 1e3
    gap_s = st.round_trip_max_us / 1e6
    ev = [_ev("round-trip latency", s, "s", [rt.first_line, rt.max_line],
              threshold=f">= {th['min_pct']} % of the response time excluding think time"),
          _ev("round trips", rt.count, "round trips", note=f"SQL*Net message from client gaps under {gap_s:g} s "
              "between an EXEC or FETCH and the next FETCH of the same cursor"),
          _ev("average round trip", avg_ms, "ms", [rt.max_line],
              note=f"min {(rt.min_us or 0) / 1e3:.3f} ms, max {rt.max_us / 1e3:.3f} ms (line {rt.max_line})"),
          _ev("share of the response time excluding think time", share, "%",
              note=f"R {r_s:.6f} s less {led['think_s']:.6f} s of think time ({led['think_gaps']} other client gaps)")]
    ev += _fetch_loops(st)
    rule = TRACE_RULES["T05"]
    return _finding(rule, s, r_s, ev,
                    "Fetch more rows per call: a larger fetch array size / prefetch (SQL*Plus set arraysize, JDBC "
                    "setFetchSize, ODP.NET FetchSize, python-oracledb cursor.arraysize and prefetchrows); make fewer "
                    "calls (bulk binds and array DML, one set-based statement instead of a row-by-row loop); or "
                    "bring the client closer to the database (lower network latency): each round trip costs "
                    f"{avg_ms:.1f} ms whatever the database does.",
                    confirm="ping or tnsping between the client and database hosts close to the average gap; "
                            "rows per FETCH equal to the client's array size",
                    refute="gaps far above the network's round trip that grow with the rows per fetch: the client's "
                           "processing of each array, not the network (larger arrays then help less)",
                    title=f"Round-trip latency: {rt.count:,} round trips × {avg_ms:.1f} ms",
                    base=("response time excluding think time", active))


def _fetch_loops(st: TraceStats, top: int = 3) -> list[dict]:
    """Evidence per statement whose fetch loops made the most round trips: its rows per FETCH shows the
    array size the client used."""
    out = []
    loops = sorted((s for s in st.statements.values() if s.round_trips), key=lambda s: -s.round_trip_us)
    for s in loops[:top]:
        fetch = s.calls.get("FETCH")
        rows = f"{fetch.r / fetch.count:.1f} rows per FETCH over {fetch.count:,} FETCH calls" if fetch and fetch.count \
            else "no FETCH line"
        out.append(_ev(f"fetch loop of {s.key}", s.round_trip_us / 1e6, "s",
                       [s.line, s.round_trip_line, fetch.max_line if fetch else 0],
                       note=f"{s.round_trips:,} round trips, {rows}: {s.text[:80]!r}"))
    return out


def run_trace_rules(st: TraceStats, r_s: float, overrides: dict | None = None) -> list[dict]:
    out = []
    for rule in TRACE_RULES.values():
        th = {**rule.thresholds, **((overrides or {}).get(rule.id, {}))}
        f = rule.func(st, r_s, th)
        if f:
            out.append(f)
    out.sort(key=lambda f: -f["impact"]["seconds"])
    return out
