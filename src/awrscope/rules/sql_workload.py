"""G18: the SQL workload as a cause. Time on CPU and in reads at healthy latency is no fault of the host or the
storage: it is spent by statements, and making them do less is the fix. The finding claims, of DB CPU and of the
read waits no cause before it claimed, what the statements the report ranks account for (SQL ordered by CPU Time,
by User I/O Wait Time, else by Reads in proportion to their physical reads), never more, and names them with their
shares; the characterisations (CPU to spare, fast reads) stay beside it as annotations."""
from __future__ import annotations

from ..numfmt import fmt_num

from ..ledger.model import CPU
from ..metrics.values import Source
from .base import Context, Evidence, make_finding, pct_text, rule
from .culprits import MIN_SQL_SHARE_PCT, Culprit, is_plsql, sql as sql_culprits
from .general import ALL_READ_EVENTS
from .workload import BACKGROUND_MODULES, _module, _sql_text

#: How many statements of each list are added: all a list prints (10 to 65 rows), each disjoint from the others.
TOP = 100


def _statements(ctx: Context, order: str, dbt: float) -> tuple[list[Culprit], list[Culprit]]:
    """(plain statements, PL/SQL entry points) of one list, the database's own background SQL left out: a PL/SQL
    call's time includes the statements it runs, so it is named, never added."""
    found = [c for c in sql_culprits(ctx.report, order, dbt, n=3 * TOP, floor=0.0) if _module(c) not in BACKGROUND_MODULES]
    plain = [c for c in found if not is_plsql(_sql_text(c))][:TOP]
    calls = [c for c in found if is_plsql(_sql_text(c))][:3]
    return plain, calls


def _by_share(ctx: Context, order: str, seconds: float) -> tuple[list[Culprit], float]:
    """Without a list ranked by time (10g and Statspack have no User I/O list, 8i and 9i no CPU list): the
    statements' share of what a list ranks them by ('%Total' of physical reads, of buffer gets) applied to the
    time that work takes (the read waits, DB CPU)."""
    out, share = [], 0.0
    for c in sql_culprits(ctx.report, order, None, n=3 * TOP, floor=0.0):
        if _module(c) in BACKGROUND_MODULES or is_plsql(_sql_text(c)) or c.share_pct is None:
            continue
        out.append(c)
        share += c.share_pct
        if len(out) == TOP:
            break
    return out, min(100.0, share) / 100.0 * seconds


@rule("G18", "sql-workload", "SQL workload: statements spending DB time on CPU and reads", family="general", pct=5.0)
def g18(ctx: Context, th: dict):
    """The statements the report ranks spend DB CPU and read time that no cause before this one explains.

    Without SQL ordered by CPU Time (8i, 9i Statspack), the statements' share of buffer gets times DB CPU.
    What it detects: of DB CPU, and of the read waits (db file sequential/scattered/parallel read, direct path
    read, cell reads, read by other session) no finding before it claimed, the part the plain statements of SQL
    ordered by CPU Time and by User I/O Wait Time account for (every plain statement each list prints, PL/SQL calls named but not added:
    their time includes the statements they run; the database's own background SQL left out). Without the User I/O
    list, the statements' share of physical reads (SQL ordered by Reads) times the read time. >= 5 % of DB time.
    Why it matters: on a host with CPU to spare and storage at healthy latency, the time is the statements' work.
    What to do: the statements named, at the SQL level: the plan and access path (awrsqrpt.sql for the SQL id),
    the rows and blocks per execution, executions per call, child cursors when many.
    """
    ctx.need_events()
    m = ctx.m
    dbt = m.v("db_time_s")
    cpu_free = ctx.free(CPU) if ctx.ledger is not None else 0.0
    reads = [e for e in m.fg_events.values() if e.name.lower() in ALL_READ_EVENTS and e.time_s > 0]
    read_free = {e.name: ctx.free(e.name) for e in reads}
    cpu_stmts, cpu_calls = _statements(ctx, "cpu", dbt)
    io_stmts, io_calls = _statements(ctx, "user_io", dbt)
    # plain statements are disjoint; PL/SQL calls may nest, so of them only the largest is sure to be its own
    cpu_s = min(cpu_free, max(sum(c.value for c in cpu_stmts), max((c.value for c in cpu_calls), default=0.0)))
    if not cpu_stmts and not cpu_calls and ctx.report.sections.get("sql_by_cpu") is None:
        cpu_stmts, cpu_s = _by_share(ctx, "gets", cpu_free)
    free_reads = sum(read_free.values())
    if io_stmts or io_calls:
        io_s = min(free_reads, max(sum(c.value for c in io_stmts), max((c.value for c in io_calls), default=0.0)))
    else:
        io_stmts, io_s = _by_share(ctx, "reads", free_reads)
    if not cpu_stmts and not io_stmts and not cpu_calls and not io_calls:
        return None
    if 100.0 * (cpu_s + io_s) / dbt < th["pct"]:
        return None
    claimed_cpu = ctx.claim(CPU, cpu_s) if cpu_s > 0 else 0.0
    claimed_io = 0.0
    if io_s > 0 and free_reads > 0:
        for name, free in read_free.items():  # the reads in proportion to what of each is left
            claimed_io += ctx.claim(name, io_s * free / free_reads)
    ev = []
    if claimed_cpu:
        by_gets = bool(cpu_stmts) and cpu_stmts[0].section != "sql_by_cpu"
        ev.append(Evidence("sql_cpu_s", round(claimed_cpu, 3), "s", None,
                           tuple(Source(c.section, c.name, c.measure, c.line, c.value) for c in cpu_stmts[:5]),
                           f"the statements' share of buffer gets (SQL ordered by Gets: the report ranks none by CPU) x "
                           f"the DB CPU left ({fmt_num(cpu_free, 's')})" if by_gets else
                           f"DB CPU of the {len(cpu_stmts)} statements SQL ordered by CPU Time lists "
                           f"({fmt_num(sum(c.value for c in cpu_stmts), 's')}"
                           + (f"; its largest PL/SQL call {fmt_num(max(c.value for c in cpu_calls), 's')}, whichever is more"
                              if cpu_calls else "") + f"), at most the DB CPU left ({fmt_num(cpu_free, 's')})"))
    if claimed_io:
        ev.append(Evidence("sql_read_s", round(claimed_io, 3), "s", None,
                           tuple(Source(c.section, c.name, c.measure, c.line, c.value) for c in io_stmts[:5]),
                           ("user I/O wait of the top statements of SQL ordered by User I/O Wait Time"
                            if io_stmts and io_stmts[0].section == "sql_by_user_io" else
                            "the top statements' share of physical reads (SQL ordered by Reads) x the read wait time")
                           + f", at most the read time left ({fmt_num(free_reads, 's')})"))
    io = ctx.assessment.io if ctx.assessment is not None else {}
    single = io.get("single-block read")
    if single is not None:
        ev.append(Evidence("avg_ms[single-block read]", round(single.ms, 3), "ms", None, (), f"{single.state}: "
                           f"healthy under {single.as_dict()['band_ms'][1]:g} ms ({single.source})"))
    cpu = ctx.assessment.cpu if ctx.assessment is not None else None
    if cpu is not None and cpu.busy_pct is not None:
        ev.append(ctx.ev("host_cpu_busy_pct"))
    # the statements named: by the time they spend here, then the PL/SQL entry points that run them (a statement
    # taking 10 % of DB time alone is named by G07 whatever its time is made of)
    named: dict[str, Culprit] = {}
    spent = (cpu_stmts if claimed_cpu else []) + (io_stmts if claimed_io else [])  # the lists whose time is claimed
    for c in sorted(spent, key=lambda c: -(c.value if c.unit == "s" else (c.share_pct or 0.0))):
        named.setdefault(c.name, c)
    # named when it holds 1 % of DB time at least (culprits' floor): 0.4 % explains nothing of the finding
    culprits = [c for c in named.values() if c.share_pct is None or c.share_pct >= MIN_SQL_SHARE_PCT][:5]
    calls = (cpu_calls if claimed_cpu else []) + (io_calls if claimed_io else [])
    extra = [c for c in calls if c.name not in {x.name for x in culprits}
             and (c.share_pct is None or c.share_pct >= MIN_SQL_SHARE_PCT)]
    culprits += list({c.name: c for c in extra}.values())[:4]
    parts = ([f"{pct_text(100.0 * claimed_cpu / dbt)} of DB time on CPU"] if claimed_cpu else []) + \
            ([f"{pct_text(100.0 * claimed_io / dbt)} in reads"] if claimed_io else [])
    versions = sql_culprits(ctx.report, "version_count", dbt, n=1, floor=0.0)
    advice = ("Tune the statements named, at the SQL level: the execution plan and access path (awrsqrpt.sql for the "
              "SQL id; SQL Tuning Advisor), the rows and blocks each execution touches, and whether they run more "
              "often than the application needs (executions per call, row-by-row loops in the PL/SQL that calls them).")
    if versions and versions[0].value >= 100:
        advice += (f" {versions[0].name} has {versions[0].value:,.0f} child cursors (SQL ordered by Version Count): "
                   "find why they are not shared (V$SQL_SHARED_CURSOR).")
    title = (f"SQL workload: the top statements spend {' and '.join(parts)}"
             + (f" ({', '.join(c.name for c in culprits[:3])})" if culprits else ""))
    f = make_finding(ctx, "G18", claimed_cpu + claimed_io, "high" if len(ev) >= 2 else "medium", ev, advice, title=title,
                     confirm="The statements' plans and their executions per call (AWR SQL report); ASH by SQL id.",
                     refute="The statements' time is spread over many statements none of which the lists name.")
    f.culprits = culprits
    if calls:
        f.caveats.append("PL/SQL calls are named, not added: their time includes the statements they run ("
                         + ", ".join(dict.fromkeys(c.name for c in calls)) + ")")
    return f
