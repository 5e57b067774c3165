"""Workload findings beyond the write path, the ones ADDM makes: statements that take a large share
of DB time (G07), parsing (G08), logon storms (G09), waiting for CPU (G10) and an undersized cache
(G11). Each is measured on the report's own figures: the Time Model's parse and connection times,
the SQL sections' elapsed times, the advisories' own estimates."""
from __future__ import annotations

from ..model import Section
from ..metrics import Source
from ..ledger.model import REMAINDER
from .base import RULES, Context, Evidence, Needs, make_finding, pct_text, rule
from ..oracle.events import wait_class
from ..metrics.activity import ash_cpu_share
from .culprits import is_plsql, segments as seg_culprits, sql as sql_culprits
from ..numfmt import fmt_num

#: Modules of SQL that the database's own background processes run: in the SQL sections, not in DB time.
BACKGROUND_MODULES = ("mmon_slave", "mmon")


def _sql_text(c) -> str:
    """A culprit's SQL text, without the 'module X; ' its detail starts with."""
    d = c.detail
    if d.startswith("module "):
        d = d.split("; ", 1)[1] if "; " in d else ""
    return d.lower()


def _module(c) -> str:
    return c.detail[7:].split(";", 1)[0].strip().lower() if c.detail.startswith("module ") else ""


@rule("G07", "top-sql", "SQL statements taking a large share of DB time", family="view", culprits=("sql:elapsed",),
      pct=10.0, stmt_pct=1.0, top=5)
def g07(ctx: Context, th: dict):
    """The top statements of SQL ordered by Elapsed Time (up to 5, each >= 1 % of DB time) take
    >= 10 % of DB time together: tune those statements first (ADDM's "Top SQL Statements"). A view:
    the same DB time the causes claim, seen by statement; it claims nothing.

    Never above 100 % of DB time: a PL/SQL block's time includes the statements it runs, so blocks
    are counted only when no plain statement qualifies; SQL of the database's own background
    processes (module MMON_SLAVE) is not DB time and is left out; and a statement that would take
    the sum above DB time is nested in one already counted (or background work): it is named in a
    caveat, not added."""
    ctx.need("db_time_s")
    dbt = ctx.m.v("db_time_s")
    if ctx.report.sections.get("sql_by_elapsed") is None:
        raise Needs("SQL ordered by Elapsed Time")
    top = [c for c in sql_culprits(ctx.report, "elapsed", dbt, n=3 * th["top"]) if (c.share_pct or 0.0) >= th["stmt_pct"]]
    background = [c for c in top if _module(c) in BACKGROUND_MODULES]
    top = [c for c in top if c not in background]
    plain = [c for c in top if not is_plsql(_sql_text(c))]
    counted, nested, seconds = [], [], 0.0
    for c in (plain or top):
        if len(counted) == th["top"]:
            break
        if seconds + c.value > dbt * 1.0005:
            nested.append(c)
            continue
        counted.append(c)
        seconds += c.value
    # a statement that alone takes >= 10 % of DB time is always named, a PL/SQL call or nested in one counted
    big = [c for c in top if (c.share_pct or 0.0) >= th["pct"] and c.name not in {x.name for x in counted}]
    if not counted or (100.0 * seconds / dbt < th["pct"] and not big):
        return None
    ids = ", ".join(dict.fromkeys(c.name for c in counted))  # RAC and PDB rows repeat a SQL id
    f = make_finding(ctx, "G07", seconds, "high",
                     [Evidence(f"elapsed_s[{c.name}]", c.value, "s", f">= {th['stmt_pct']} % of DB time each",
                               (Source(c.section, c.name, "elapsed", c.line, c.value),), f"{fmt_num(c.share_pct, '%')} of DB time")
                      for c in counted],
                     "Tune these statements first (SQL Tuning Advisor, the execution plan from AWR: awrsqrpt.sql for the "
                     "SQL id): check the access path, the row counts per execution, and whether they run more often than "
                     "the application needs.",
                     title=f"Top SQL: {len(counted)} statement(s) take {100.0 * seconds / dbt:.1f} % of DB time ({ids})")
    f.culprits = counted + big
    if big:
        f.caveats.append("named, not added (each >= " + f"{th['pct']:g} % of DB time; PL/SQL calls hold the time of the "
                         "statements they run): " + ", ".join(f"{c.name} {c.share_pct:.1f} %" for c in big))
    if plain and len(plain) < len(top):
        f.caveats.append("PL/SQL blocks are not added: their time includes the statements they run")
    if background:
        f.caveats.append("left out as the database's own background work (not DB time): "
                         + ", ".join(dict.fromkeys(c.name for c in background)))
    if nested:
        f.caveats.append("not added, as their elapsed time would take the sum above DB time (nested in a statement "
                         "already counted, or background work): " + ", ".join(dict.fromkeys(c.name for c in nested)))
    return f


@rule("G12", "hot-segments", "Hot segments behind the I/O and cluster waits", family="view",
      culprits=("segments:physical_reads",), pct=10.0, segment_pct=20.0)
def g12(ctx: Context, th: dict):
    """User I/O and Cluster waits take >= 10 % of DB time and one or a few segments hold >= 20 % of
    the physical reads each (Segments by Physical Reads, else by Direct Physical Reads): ADDM's "Top
    Segments by User I/O and Cluster". The impact is the read and cluster wait time in proportion
    to those segments' share of the reads (an estimate: the report has no wait time per segment)."""
    ctx.need_events()
    m, dbt = ctx.m, ctx.m.v("db_time_s")
    io = sum(e.time_s for e in m.fg_events.values() if wait_class(e.name, e.wait_class) in ("User I/O", "Cluster"))
    if 100.0 * io / dbt < th["pct"]:
        return None
    segs = []
    for order in ("physical_reads", "direct_physical_reads"):
        segs = [c for c in seg_culprits(ctx.report, order, n=5) if (c.share_pct or 0.0) >= th["segment_pct"]]
        if segs:
            break
    if not segs:
        if not any(k in ctx.report.sections for k in ("segments_by_physical_reads", "segments_by_direct_physical_reads")):
            raise Needs("Segments by Physical Reads")
        return None
    share = min(100.0, sum(c.share_pct for c in segs))
    names = ", ".join(dict.fromkeys(c.name for c in segs))
    # reads that are mostly direct (Segments by Direct Physical Reads) bypass the buffer cache: no cache holds them
    direct = {c.name: c.value for c in seg_culprits(ctx.report, "direct_physical_reads", n=50)} \
        if segs[0].section == "segments_by_physical_reads" else {}
    bypass = all(direct.get(c.name, 0.0) >= 0.5 * c.value for c in segs)
    f = make_finding(ctx, "G12", io * share / 100.0, "medium",
                     [Evidence(f"share_of_reads[{c.name}]", c.share_pct, "%", f">= {th['segment_pct']} %",
                               (Source(c.section, c.name, "pct", c.line, c.share_pct),), c.detail) for c in segs],
                     "Reduce the reads of these segments: the SQL that reads them (SQL ordered by Reads), their access "
                     "paths (indexes, partition pruning), "
                     + ("not caching: their reads are mostly direct (Segments by Direct Physical Reads), which bypass "
                        "the buffer cache, so a KEEP pool or a larger cache would not hold them; " if bypass and direct
                        else "caching them (a KEEP pool or a larger cache) ")
                     + "and, in RAC, which instance reads them (service affinity).",
                     title=f"Hot segments: {names} hold {share:.0f} % of the physical reads")
    f.culprits = segs
    return f


def _tm(ctx: Context, name: str):
    sec: Section | None = ctx.report.sections.get("time_model")
    row = sec.row(name) if sec else None
    if row is None or row.values.get("time_s") is None:
        return None, None
    return row.values["time_s"], row


def _tm_ev(name: str, v: float, row, dbt: float, threshold: str | None = None) -> Evidence:
    return Evidence(f"time_model[{name}]", round(100.0 * v / dbt, 3), "%", threshold,
                    (Source("time_model", row.name, "time_s", row.line, v),), fmt_num(v, "s"))


#: Foreground waits that parsing itself causes: what parse time is made of besides CPU.
PARSE_WAITS = ("library cache", "cursor: ", "latch: shared pool", "latch: row cache", "row cache lock", "latch: library cache")

#: An instance that started less than this before the window's end has advisories and parse figures of a cold start.
COLD_START_S = 3600.0


def _startup(ctx: Context):
    h = ctx.report.header
    times = [i.startup_time for i in h.instances if i.startup_time is not None]
    return max(times) if times else None


def _cold_start(ctx: Context) -> str | None:
    """'instance started N min before the window' when the instance started within the hour before the window."""
    h, st = ctx.report.header, _startup(ctx)
    if st is None or h.begin is None or h.begin.time is None:
        return None
    before = (h.begin.time - st).total_seconds()
    if 0 <= before <= COLD_START_S:
        return f"the instance started {before / 60:.0f} min before the window"
    return None


#: A share of executions hard parsed this high is literal SQL: bind variables make a statement parse hard once.
LITERAL_HARD_PARSE_PCT = 5.0


def _literal_evidence(ctx: Context) -> Evidence | None:
    """'parse count (hard)' / 'execute count' >= 5 %: each execution of literal SQL is a new statement."""
    hp, ex = ctx.report.stat("parse count (hard)"), ctx.report.stat("execute count")
    h = hp.values.get("total") if hp is not None else None
    x = ex.values.get("total") if ex is not None else None
    if not h or not x or 100.0 * h / x < LITERAL_HARD_PARSE_PCT:
        return None
    return Evidence("hard_parses_per_execution", round(100.0 * h / x, 2), "%", f">= {LITERAL_HARD_PARSE_PCT} % (literal SQL)",
                    (Source("instance_activity", hp.name, "total", hp.line, h), Source("instance_activity", ex.name, "total", ex.line, x)),
                    f"{h:,.0f} hard parses of {x:,.0f} executions")


def _addm_agrees(ctx: Context, pattern: str) -> bool:
    """The report's own ADDM findings (computed by ADDM from this window's snapshot deltas) include one matching ``pattern``."""
    import re
    sec = ctx.report.sections.get("addm_findings")
    return any(re.search(pattern, (r.name or "").lower()) for r in (sec or ()))


def advisory_window(ctx: Context, fraction: float = 0.5, addm: str | None = None) -> str | None:
    """None when an advisory, which accumulates since instance startup, describes this window (the window is at least
    ``fraction`` of the time since startup, or the report's ADDM, which works on the window's own deltas, makes the
    same finding: pattern ``addm``); else why it does not ('the instance had been up 12.0 days')."""
    if addm and _addm_agrees(ctx, addm):
        return None
    h, st = ctx.report.header, _startup(ctx)
    e = ctx.m.v("elapsed_s")
    if st is None or h.end is None or h.end.time is None or not e:
        return "the instance's startup time is not printed: the advisory's period (since startup) cannot be compared with the window"
    up = (h.end.time - st).total_seconds()
    if up <= 0 or e >= fraction * up:
        return None
    return (f"the advisory accumulates since instance startup ({up / 86400:.1f} days before the window's end) and this "
            f"window is {e / 60:.0f} min of it")


#: A hard-parse cause as a title names it after 'hard parses N %, mostly'
_SHORT_CAUSE = {"hard parses of literal SQL": "literal SQL", "parse errors": "parse errors",
                "cursors not shared (sharing criteria, bind mismatch)": "cursors not shared"}

#: What to do about each kind of parse time (G08)
_PARSE_ADVICE = {
    "hard parses of literal SQL": "use bind variables in the application (SQL ordered by Parse Calls / Executions shows "
                                  "statements that differ only by literals); as a stop-gap cursor_sharing=FORCE",
    "hard parses": "look for literal SQL (SQL ordered by Parse Calls / Executions: statements that differ only by "
                   "literals, executed once each) and use bind variables; as a stop-gap cursor_sharing=FORCE",
    "cursors not shared (sharing criteria, bind mismatch)": "find why child cursors are not shared "
                                                            "(V$SQL_SHARED_CURSOR for the SQL in SQL ordered by Version Count): "
                                                            "bind length/type mismatches, optimizer settings per session, NLS",
    "parse errors": "find the failing statements (ORA- errors in the application log, event 10035 or "
                    "V$SQL_SHARED_CURSOR/failed parse tracing) and fix them: each error is a full hard parse",
    "soft parses": "keep cursors open in the application (statement caching in the driver, session_cached_cursors), "
                   "parse once and execute many times",
}


@rule("G08", "parsing", "Hard parsing / cursor sharing", family="general", culprits=("sql:parse_calls", "sql:version_count"),
      pct=5.0)
def g08(ctx: Context, th: dict):
    """Parsing takes >= 5 % of DB time (Time Model 'parse time elapsed'). The split says why: hard
    parses from literals (hard parse time with little 'sharing criteria' or 'bind mismatch' time),
    cursors not shared for another reason (sharing criteria, bind mismatch: SQL ordered by Version
    Count), parse errors ('failed parse elapsed time': a failed parse is hard parsed too) or soft parses
    (parse time not hard: cursors opened and closed per execution). Hard or soft is decided first, then the
    hard part's cause; a second cause holding a quarter of the hard time is named with it.
    Faster storage or redo does nothing for it."""
    ctx.need("db_time_s")
    dbt = ctx.m.v("db_time_s")
    parse, prow = _tm(ctx, "parse time elapsed")
    if parse is None:
        raise Needs("Time Model 'parse time elapsed'")
    if 100.0 * parse / dbt < th["pct"]:
        return None
    hard, hrow = _tm(ctx, "hard parse elapsed time")
    share, srow = _tm(ctx, "hard parse (sharing criteria) elapsed time")
    bind, brow = _tm(ctx, "hard parse (bind mismatch) elapsed time")
    failed, frow = _tm(ctx, "failed parse elapsed time")
    ev = [_tm_ev("parse time elapsed", parse, prow, dbt, f">= {th['pct']} %")]
    for v, row, n in ((hard, hrow, "hard parse elapsed time"), (share, srow, "hard parse (sharing criteria) elapsed time"),
                      (bind, brow, "hard parse (bind mismatch) elapsed time"), (failed, frow, "failed parse elapsed time")):
        if v is not None:
            ev.append(_tm_ev(n, v, row, dbt))
    hard = hard or 0.0
    # the Time Model's parse time: hard parse elapsed time holds 'sharing criteria', which holds 'bind mismatch'; a
    # failed parse is hard parsed too (nb 10.2.0.4: parse 2,077 s, hard 2,016 s, failed 1,735 s); the rest is soft.
    # Hard or soft is decided first: 47.9 % hard of which 16.0 % errors is mostly hard parsing, beside 40.1 % soft.
    not_shared = share if share is not None else (bind or 0.0)
    errors = min(failed or 0.0, hard)
    hard_causes = {"parse errors": errors, "cursors not shared (sharing criteria, bind mismatch)": not_shared,
                   "hard parses of literal SQL": max(0.0, hard - not_shared - errors)}
    soft = max(0.0, parse - hard)
    cause, t = max(hard_causes.items(), key=lambda kv: kv[1]) if hard >= soft else ("soft parses", soft)
    top = cause  # before a literal cause is said as plain 'hard parses' (no evidence of literals, a cold start)
    cold = _cold_start(ctx)
    kind = cause
    literal = _literal_evidence(ctx)
    if cause == "hard parses of literal SQL" and (cold or literal is None):
        # the Time Model says hard parses, not why: literals are the usual cause, a cold shared pool after a startup
        # another; only the share of executions hard parsed (with a warm instance) points at literals
        kind = cause = "hard parses"
    if literal is not None:
        ev.append(literal)
    advice = _PARSE_ADVICE[kind]
    if cold and kind == "hard parses":
        advice = (f"{cold}, and hard parses of a cold shared pool fade as it warms up: compare with a later window "
                  "before changing anything. If they persist, " + advice)
    # parsing's CPU is at most 'parse time cpu' where printed (centiseconds); the rest of parse time is waits
    pcpu = ctx.report.stat("parse time cpu")
    cpu_cap = pcpu.values.get("total") / 100.0 if pcpu is not None and pcpu.values.get("total") is not None else parse
    claimed = ctx.claim("DB CPU", min(parse, cpu_cap))
    for e in sorted((e for e in ctx.m.fg_events.values() if e.name.lower().startswith(PARSE_WAITS)), key=lambda e: -e.time_s):
        if claimed >= parse:
            break
        claimed += ctx.claim(e.name, parse - claimed)
    if claimed < parse:  # parsing is CPU and its waits; what they cannot hold may be the CPU queue
        claimed += ctx.claim(REMAINDER, parse - claimed)
    caveats = []
    if claimed < parse - 0.005 * dbt:
        caveats.append(f"parse time elapsed ({parse:,.1f} s, {100.0 * parse / dbt:.1f} % of DB time) overlaps other parts of "
                       f"DB time: {claimed:,.1f} s of it are claimed here from DB CPU, the parse waits and the time neither "
                       "on CPU nor waiting; the rest is in parts other findings claimed")
    # a hard part shared by two causes (literals and errors, say) names both: one alone would hide the other's fix
    parts = {**hard_causes, "soft parses": soft}
    also = [k for k, v in hard_causes.items() if hard >= soft and k != top and v >= 0.25 * hard and v >= 0.02 * dbt] + (
        ["soft parses"] if hard >= soft and soft >= 0.25 * parse and soft >= 0.02 * dbt else [])
    more = "".join(f" Also {k} ({100.0 * parts[k] / dbt:.1f} % of DB time): " + _PARSE_ADVICE[k] + "." for k in also)
    if kind == "hard parses":  # no cause of them is told: all of them, but those an 'Also' names
        t = hard - sum(hard_causes[k] for k in also if k in hard_causes)
    title = f"Parsing {100.0 * parse / dbt:.1f} % of DB time"
    if hard >= soft and cause in _SHORT_CAUSE:  # the hard part's size, then its cause
        title += f": hard parses {100.0 * hard / dbt:.1f} %, mostly {_SHORT_CAUSE[cause]} ({100.0 * t / dbt:.1f} %)"
    else:
        title += f", mostly {cause} ({100.0 * t / dbt:.1f} %)" + (f"; {cold}" if cold and kind == "hard parses" else "")
    return make_finding(ctx, "G08", parse, "high", ev, f"Parsing costs {100.0 * parse / dbt:.1f} % of DB time, mostly {cause}: "
                        + advice + "." + more + " A bigger shared pool only helps if 'latch: shared pool' / reloads show "
                        "it is too small.",
                        title=title,
                        caveats=caveats)


@rule("G10", "cpu-wait", "Sessions waiting for CPU (run queue)", family="general", culprits=("sql:cpu", "sql:gets"), pct=10.0)
def g10(ctx: Context, th: dict):
    """DB time that is neither DB CPU nor an instrumented wait >= 10 % of DB time (metric
    unaccounted_s): sessions were runnable but not running, queued for a CPU, also on a
    host that looks idle by BUSY_TIME when SMT threads are counted as CPUs (AIX, SPARC) or a
    virtual machine is starved by its hypervisor. OS_CPU_WAIT_TIME (cpu_queue_aas) confirms it, or
    a host >= 80 % busy; without OS figures, sessions on CPU or in the gap outnumbering the CPUs.
    A short run queue or an idle host refutes it: then no cause is named and nothing is claimed; the gap
    is an annotation of the ledger's remainder ("unexplained: check ASH"), not a ranked finding."""
    ctx.need("db_time_s", "unaccounted_s")
    m = ctx.m
    gap, dbt = m.v("unaccounted_s"), m.v("db_time_s")
    pct = 100.0 * gap / dbt
    if pct < th["pct"]:
        return None
    cpus, cores, q = m.v("cpu_count"), m.v("cpu_cores"), m.v("cpu_queue_aas")
    smt = f" ({cpus:g} CPUs are SMT threads of {cores:g} cores: the host's busy % understates saturation)" \
        if cpus and cores and cpus >= 2 * cores else ""
    ev = [ctx.ev("unaccounted_pct", f">= {th['pct']} %"), ctx.ev("unaccounted_s"), ctx.ev("cpu_queue_aas"),
          ctx.ev("host_cpu_busy_pct"), ctx.ev("cpu_count"), ctx.ev("cpu_cores"), ctx.ev("aas")]
    e = m.v("elapsed_s")
    ctx.claim(REMAINDER, gap)
    queued = q is not None and e and q >= 0.25 * gap / e
    # more sessions active than CPUs is no queue when their time is waits: the CPU assessment decides
    corroborated = ctx.assessment.cpu.gap_queued is not None
    if not corroborated:
        # no OS figure shows a CPU queue: the gap may be time the report does not print (an excerpt, a
        # truncated event list) or instrument; say so instead of asserting a CPU queue
        busy = m.v("host_cpu_busy_pct")
        why = ("OS_CPU_WAIT_TIME exceeds BUSY_TIME, which is no run queue by itself, with "
               f"{fmt_num(((m.v('db_cpu_s') or 0.0) + gap) / e / cores, 'sessions')} on CPU or in the gap per core and the host "
               f"{pct_text(busy)} busy" if q is not None and (m.v("os_cpu_wait_share") or 0.0) > 1.0 and busy is not None
               and cores and e else
               f"the OS run queue was short ({fmt_num(q)} processes)" if q is not None else
               # SMT threads halve a busy %, no more: a host under 40 % busy is idle counted either way
               f"the host was {pct_text(busy)} busy" if busy is not None and (not smt or busy < 40.0) else
               "no OS statistics confirm a CPU queue")
        todo = ("check ASH for the sessions' states (waits missing from the event list, uninstrumented code, CPU "
                "queue).")
        ash = ash_cpu_share(ctx.report)
        cpu_pct = 100.0 * (m.v("db_cpu_s") or 0.0) / dbt
        # ASH's CPU beyond DB CPU is sessions in no wait yet not counted on CPU: it must cover much of the gap
        if ash is not None and ash[0] - cpu_pct >= 0.5 * pct:
            ev.append(Evidence("ash_cpu_share", round(ash[0], 2), "%", f"- DB CPU {cpu_pct:.1f} % >= half the gap",
                               tuple(Source("ash_activity_events", e.name, "event_count", e.line,
                                            e.values["event_count"]) for e in ash[1][:3]),
                               "share of Activity Over Time's samples on 'CPU + Wait for CPU' (a lower bound: each "
                               "slot prints its top three events)"))
            todo = (f"ASH saw the sessions on CPU or queued for it in at least {ash[0]:.0f} % of its samples (Activity "
                    f"Over Time), while DB CPU is {cpu_pct:.1f} % of DB time: they were in no wait, yet not counted on "
                    "CPU. Either they were runnable without running, which the host's busy time does not show (a "
                    "capped LPAR, VM or container: its entitlement or CPU limit; a hypervisor taking the CPU: steal "
                    "time), or in code Oracle does not time. Check the LPAR's entitlement, the VM's steal time or the "
                    "container's CPU limit, then ASH by session.")
        # the Time Model's own split: SQL and PL/SQL execution hold at most their sum of DB time
        (sql_s, sql_row), (plsql_s, plsql_row) = _tm(ctx, "sql execute elapsed time"), _tm(ctx, "PL/SQL execution elapsed time")
        outside = 100.0 - 100.0 * ((sql_s or 0.0) + (plsql_s or 0.0)) / dbt
        if sql_s is not None and outside >= 30.0:
            ev += [_tm_ev(n, v, row, dbt) for n, v, row in (("sql execute elapsed time", sql_s, sql_row),
                                                            ("PL/SQL execution elapsed time", plsql_s, plsql_row))
                   if v is not None]
            todo += (f" The Time Model puts {100.0 * sql_s / dbt:.1f} % of DB time in SQL execution and "
                     f"{100.0 * (plsql_s or 0.0) / dbt:.1f} % in PL/SQL: at least {outside:.0f} % of it is in "
                     "neither.")
        # no cause is named, so nothing is claimed: an annotation of the ledger's remainder, which shows the time
        f = make_finding(ctx, "G10", gap, "low", ev,
                         "DB time is not explained by DB CPU and the printed waits, and " + why + ": " + todo,
                         title=f"{pct:.1f} % of DB time is neither CPU nor a printed wait ({why})")
        f.annotates = (REMAINDER,)
        return f
    claimed = ctx.ledger.claimed_s("G10") if ctx.ledger is not None else gap
    other = f" ({100.0 * (gap - claimed) / dbt:.1f} % of it claimed by other findings)" if gap - claimed > 0.005 * dbt else ""
    return make_finding(ctx, "G10", gap, "high" if queued else "medium", ev,
                        "Sessions queue for CPU" + smt + ": reduce CPU demand (the SQL with most CPU and logical reads), "
                        "limit concurrency (connection pool size, Resource Manager), or give the host/LPAR/VM more CPU "
                        "(entitlement, no overcommit). Check non-Oracle processes on the host.",
                        title=f"Waiting for CPU: {pct:.1f} % of DB time is neither CPU nor a wait{other}"
                              + (f", {fmt_num(q)} processes in the run queue on average" if q is not None else ""))


def _advisory_rows(sec: Section | None, factor_pat: str, value_pat: str):
    import re
    if sec is None:
        return None
    ff = next((f for f in sec.units if re.search(factor_pat, f)), None)
    vf = next((f for f in sec.units if re.search(value_pat, f)), None)
    if ff is None or vf is None:
        return None
    pts = [(r.values.get(ff), r.values.get(vf), r) for r in sec.rows]
    pts = [(f, v, r) for f, v, r in pts if f is not None and v is not None]
    return pts or None


#: Foreground reads a larger buffer cache avoids.
CACHED_READS = ("db file sequential read", "db file scattered read", "db file parallel read",
                "cell single block physical read", "cell multiblock physical read")


def _advisory_context(ctx: Context, rid: str, ev: list, why: str, what: str):
    """An advisory that does not describe this window: said as context (an observation that claims nothing),
    not as a saving of this window's DB time."""
    return make_finding(ctx, rid, 0.0, "low", ev,
                        f"Over the advisory's own period, {what}; {why}, so no share of this window's DB time is promised. "
                        "Check the advisory over a window that starts at instance startup, or the same figures in a "
                        "later report.",
                        title=f"Advisory over the instance's lifetime, not this window: {what}",
                        caveats=[why])


@rule("G11", "undersized-cache", "Undersized SGA / buffer cache (from the advisories)", family="general",
      culprits=("segments:physical_reads", "sql:reads"), pct=5.0, max_factor=2.0)
def g11(ctx: Context, th: dict):
    """The report's own advisories say a larger cache saves >= 5 % of DB time: the SGA Target
    Advisory's 'Est DB Time' at up to twice the current size, else the Buffer Pool Advisory's
    'Est Phys Read Factor' applied to the foreground read wait time.

    Condition: the advisories accumulate since instance startup; their estimate is a saving of this
    window's DB time only when the window covers at least half of the time since startup, or when the
    report's own ADDM (which works on this window's deltas) finds an undersized buffer cache / SGA too.
    Otherwise the advisory is shown as context (an observation claiming nothing)."""
    ctx.need("db_time_s")
    m, dbt = ctx.m, ctx.m.v("db_time_s")
    pts = _advisory_rows(ctx.report.sections.get("sga_target_advisory"), r"size_factor", r"est_db_time")
    if pts:
        cur = next(((f, v, r) for f, v, r in pts if f == 1.0), None)
        best = min(((f, v, r) for f, v, r in pts if 1.0 < f <= th["max_factor"]), key=lambda p: p[1], default=None)
        if cur is None or best is None or cur[1] <= 0:
            return None
        saved = dbt * (1.0 - best[1] / cur[1])
        ev = [Evidence("est_db_time_s[size factor 1.0]", cur[1], "s", None,
                       (Source("sga_target_advisory", cur[2].name, "est_db_time_s", cur[2].line, cur[1]),)),
              Evidence(f"est_db_time_s[size factor {best[0]:g}]", best[1], "s", None,
                       (Source("sga_target_advisory", best[2].name, "est_db_time_s", best[2].line, best[1]),))]
        what = f"SGA at {best[0]:g}x its size ({best[2].name} MB)"
    else:
        pts = _advisory_rows(ctx.report.sections.get("buffer_pool_advisory"), r"^size_fact", r"^est_phys_read_fact")
        if not pts:
            raise Needs("SGA Target Advisory or Buffer Pool Advisory")
        pts = [p for p in pts if p[2].name in (None, "D", "d")] or pts  # the DEFAULT pool
        cur = min(pts, key=lambda p: abs(p[0] - 1.0))
        cur = cur if abs(cur[0] - 1.0) < 0.05 else None
        best = min(((f, v, r) for f, v, r in pts if 1.0 < f <= th["max_factor"]), key=lambda p: p[1], default=None)
        if cur is None or best is None or cur[1] <= 0:
            return None
        reads = sum(m.fg_time(e) for e in CACHED_READS)
        saved = reads * (1.0 - best[1] / cur[1])
        ev = [Evidence("est_phys_read_factor[size factor 1.0]", cur[1], "ratio", None,
                       (Source("buffer_pool_advisory", cur[2].name, "est_phys_read_factor", cur[2].line, cur[1]),)),
              Evidence(f"est_phys_read_factor[size factor {best[0]:g}]", best[1], "ratio", None,
                       (Source("buffer_pool_advisory", best[2].name, "est_phys_read_factor", best[2].line, best[1]),),
                       f"applied to {reads:,.1f} s of foreground buffered read waits")]
        what = f"buffer cache at {best[0]:g}x its size"
    if saved <= 0 or 100.0 * saved / dbt < th["pct"]:
        return None
    reads_s = sum(m.fg_time(e) for e in CACHED_READS)
    window = advisory_window(ctx, addm=r"^undersized (buffer cache|sga)")
    if window is None and reads_s > 0:
        ctx.claim_all(CACHED_READS, min(1.0, saved / reads_s))
    else:
        return _advisory_context(ctx, "G11", ev, window or "no foreground buffered read waits to shorten",
                                 f"the report's advisory estimates that a {what} saves about {100.0 * saved / dbt:.0f} % "
                                 "of DB time")
    return make_finding(ctx, "G11", saved, "medium", ev,
                        f"The report's advisory estimates that a {what} saves about {100.0 * saved / dbt:.0f} % of DB time: "
                        "grow the cache if memory allows (sga_target / db_cache_size), or reduce the reads of the SQL and "
                        "segments below. Advisories extrapolate from this interval's workload.",
                        title=f"Cache undersized: a {what} would save ~{100.0 * saved / dbt:.1f} % of DB time")


@rule("G13", "rac-instance-imbalance", "RAC instances unevenly loaded", family="context", ratio=1.5)
def g13(ctx: Context, th: dict):
    """A RAC (global) report whose busiest instance carries >= 1.5 x the average DB time of the
    instances (Time Model by instance): services or connection routing send the work to one node,
    which then saturates first while the others idle. An observation: the imbalance costs no DB
    time by itself, but it tells where a CPU or cluster finding comes from."""
    sec = ctx.report.sections.get("time_model_by_instance")
    rows = [r for r in (sec or ()) if r.name == "DB time" and r.values.get("time_s") is not None]
    if len(rows) < 2:
        raise Needs("Time Model by instance (a RAC global report)")
    total = sum(r.values["time_s"] for r in rows)
    top = max(rows, key=lambda r: r.values["time_s"])
    mean = total / len(rows)
    if not mean or top.values["time_s"] / mean < th["ratio"]:
        return None
    ev = [Evidence(f"db_time_s[{r.text.get('instance')}]", r.values["time_s"], "s", None,
                   (Source("time_model_by_instance", r.name, "time_s", r.line, r.values["time_s"]),),
                   f"{100.0 * r.values['time_s'] / total:.1f} % of the cluster's DB time") for r in rows]
    inst = top.text.get("instance")
    return make_finding(ctx, "G13", 0.0, "high", ev,
                        f"Instance {inst} carries {100.0 * top.values['time_s'] / total:.0f} % of the cluster's DB time: "
                        "check the services' preferred instances and connection load balancing (CLB_GOAL, "
                        "runtime load balancing), and batch jobs pinned to one node.",
                        title=f"RAC imbalance: instance {inst} has {top.values['time_s'] / mean:.1f}x the average DB time "
                              f"of {len(rows)} instances")


TEMP_EVENTS = ("direct path read temp", "direct path write temp")


@rule("G14", "undersized-pga", "Undersized PGA (from the PGA Memory Advisory)", family="general",
      culprits=("segments:direct_physical_writes", "tablespace:writes"), pct=2.0, max_factor=2.0)
def g14(ctx: Context, th: dict):
    """The PGA Memory Advisory says a larger pga_aggregate_target removes work-area I/O to TEMP: the
    foreground TEMP read/write wait time, reduced in proportion to 'Estd Extra W/A MB Read/Written
    to Disk' from size factor 1.0 to the best at up to 2x, is >= 2 % of DB time.

    Condition: the advisory accumulates since instance startup; it is applied to this window only when
    the window covers at least half of that time, else shown as context claiming nothing. When R09
    (TEMP spill) has claimed the TEMP time, this finding is shown under it: one cost, two fixes."""
    ctx.need_events()
    m, dbt = ctx.m, ctx.m.v("db_time_s")
    pts = _advisory_rows(ctx.report.sections.get("pga_advisory"), r"^size_fact", r"extra.*disk")
    if not pts:
        raise Needs("PGA Memory Advisory")
    cur = min(pts, key=lambda p: abs(p[0] - 1.0))
    best = min(((f, v, r) for f, v, r in pts if 1.0 < f <= th["max_factor"]), key=lambda p: p[1], default=None)
    temp = sum(m.fg_time(e) for e in TEMP_EVENTS)
    if abs(cur[0] - 1.0) >= 0.05 or best is None or cur[1] <= 0 or temp <= 0:
        return None
    saved = temp * (1.0 - best[1] / cur[1])
    if 100.0 * saved / dbt < th["pct"]:
        return None
    window = advisory_window(ctx, addm=r"^undersized pga")
    ev = [Evidence("estd_extra_mb_to_disk[size factor 1.0]", cur[1], "MB", None,
                   (Source("pga_advisory", cur[2].name, "extra_mb", cur[2].line, cur[1]),)),
          Evidence(f"estd_extra_mb_to_disk[size factor {best[0]:g}]", best[1], "MB", None,
                   (Source("pga_advisory", best[2].name, "extra_mb", best[2].line, best[1]),),
                   f"applied to {temp:,.1f} s of foreground TEMP read/write waits")]
    if window is not None:
        return _advisory_context(ctx, "G14", ev, window,
                                 f"{best[0]:g}x pga_aggregate_target would cut work-area I/O to TEMP by "
                                 f"{100.0 * (1.0 - best[1] / cur[1]):.0f} %")
    ctx.claim_all(TEMP_EVENTS, 1.0 - best[1] / cur[1])
    f = make_finding(ctx, "G14", saved, "medium", ev,
                        f"The PGA advisory estimates {100.0 * (1.0 - best[1] / cur[1]):.0f} % less work-area I/O to TEMP at "
                        f"{best[0]:g}x pga_aggregate_target ({best[2].name} MB): raise it if memory allows, and look at the "
                        "SQL that sorts and hashes most (large sorts, hash joins of big row sources).",
                        title=f"PGA undersized: {best[0]:g}x pga_aggregate_target would save ~{100.0 * saved / dbt:.1f} % of "
                              "DB time in TEMP I/O")
    if "R09" in RULES and m.fg_time("direct path write temp") > 0:
        f.caveats.append("the same TEMP wait time as R09 (TEMP spill): a larger PGA and faster TEMP storage are two "
                         "fixes of one cost, not additional savings")
    return f

