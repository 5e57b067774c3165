"""General findings G01-G06: what dominates DB time when it is not (only) the
write path, so that a row-lock storm is never answered with a write-path fix."""
from __future__ import annotations

import re

from ..oracle.events import wait_class
from ..assessment.cpu import SATURATED_BUSY_PCT, SATURATED_DEMAND
from .base import Context, Evidence, make_finding, pct_text, rule
from ..numfmt import fmt_num, fmt_value

def cpu_over_db_time(ctx: Context) -> str | None:
    """What to say when the report prints DB CPU above DB time (a part larger than its whole: seen in
    Statspack 11.2 time models): every rule states DB CPU's share as printed, above 100 %, with this
    note, instead of one capping it and another not. None when DB CPU fits in DB time."""
    cpu, dbt = ctx.m.v("db_cpu_s"), ctx.m.v("db_time_s")
    if cpu is None or not dbt or cpu <= dbt:
        return None
    kind = "a Statspack time-model oddity" if ctx.report.kind == "statspack" else "the report's own figures disagree"
    return (f"DB CPU {cpu:,.1f} s exceeds DB time {dbt:,.1f} s in this report ({kind}): its share of DB time is "
            f"stated as printed, {100.0 * cpu / dbt:.1f} %, not capped at 100 %; which of the two figures is wrong "
            "cannot be told from the report")


def db_cpu_evidence(ctx: Context, threshold: str | None = None) -> Evidence:
    """pct_db_time[DB CPU] as every rule states it: DB CPU / DB time from the report's figures, never capped."""
    m = ctx.m
    cpu, dbt = m.get("db_cpu_s"), m.v("db_time_s")
    return Evidence("pct_db_time[DB CPU]", round(100.0 * cpu.value / dbt, 2), "%", threshold, cpu.sources,
                    cpu_over_db_time(ctx))


def _top_components(ctx: Context):
    m = ctx.m
    dbt = m.v("db_time_s") or 0.0
    # a wait event larger than DB time is not (only) foreground time: e.g. RMAN I/O in a system-wide section
    comps = [(e.name, e.time_s, e.sources) for e in m.fg_events.values() if not dbt or e.time_s <= 1.001 * dbt]
    cpu = m.get("db_cpu_s")
    if cpu and cpu.value is not None:  # DB CPU is DB time by definition: as printed, even above it (cpu_over_db_time)
        comps.append(("DB CPU", cpu.value, cpu.sources))
    return sorted(comps, key=lambda c: -c[1])


#: Who to name under the headline, by the wait class of the top component
HEADLINE_CULPRITS = {
    "CPU": ("sql:cpu", "sql:gets"), "User I/O": ("sql:user_io", "sql:reads", "segments:physical_reads"),
    "Cluster": ("sql:cluster", "segments:gc_buffer_busy"), "Application": ("segments:row_lock_waits", "sql:elapsed"),
    "Commit": ("sql:commits",), "Concurrency": ("segments:buffer_busy_waits", "sql:parse_calls"),
    "Configuration": ("segments:db_block_changes",), "System I/O": ("segments:db_block_changes",),
}


@rule("G01", "top-time-component", "Largest component of DB time", family="headline", pct=10.0)
def g01(ctx: Context, th: dict):
    """The single largest foreground consumer of DB time (an event or DB CPU), as context for every other finding.

    Reported when it takes >= 10 % of DB time. The impact is its whole time: what a perfect fix of
    that component could save, not a recommendation in itself. DB CPU is taken as printed, also when
    the report prints it above DB time (then said in the evidence and a caveat, as G02 does).
    """
    ctx.need_events()
    comps = _top_components(ctx)
    dbt = ctx.m.v("db_time_s")
    if not comps:
        return None
    name, t, srcs = comps[0]
    gap = ctx.m.v("unaccounted_s")
    if gap and gap > t and ctx.m.event_basis == "fg" and ctx.assessment.cpu.gap_queued is not None:
        # more DB time in the run queue than in any event or on CPU: the headline is the queue G10 ranks first
        pct = 100.0 * gap / dbt
        ev = [ctx.ev("unaccounted_pct")] + [
            db_cpu_evidence(ctx) if n == "DB CPU" else Evidence(f"pct_db_time[{n}]", round(100.0 * tt / dbt, 2), "%", None, s)
            for n, tt, s in comps[:4]]
        f = make_finding(ctx, "G01", gap, "medium", ev,
                         f"Start with what dominates: sessions waiting for CPU in the run queue, {pct:.1f} % of DB time "
                         "neither on CPU nor in a wait (G10); the other findings are ranked by the "
                         "share of DB time they can address.",
                         title=f"Top of DB time: waiting for CPU (run queue, neither CPU nor a wait) {pct:.1f} %")
        f.culprit_orders = HEADLINE_CULPRITS["CPU"]
        return f
    pct = 100.0 * t / dbt
    if pct < th["pct"]:
        return None
    cls = "CPU" if name == "DB CPU" else wait_class(name, ctx.m.fg(name).wait_class if ctx.m.fg(name) else None)
    ev = [db_cpu_evidence(ctx) if n == "DB CPU" else Evidence(f"pct_db_time[{n}]", round(100.0 * tt / dbt, 2), "%", None, s)
          for n, tt, s in comps[:5]]
    over = cpu_over_db_time(ctx) if name == "DB CPU" else None
    f = make_finding(ctx, "G01", t, "high", ev,
                        f"Start with what dominates: {name} ({cls}) takes {pct:.1f} % of DB time; the other findings are "
                        "ranked by the share of DB time they can address.",
                        title=f"Top of DB time: {name} ({cls}) {pct:.1f} %" + (", more than DB time" if over else ""),
                        caveats=[over] if over else None)
    f.culprit_orders = HEADLINE_CULPRITS.get(cls, ("sql:elapsed",))
    if cls == "Concurrency" and not name.lower().startswith(("buffer busy", "read by other")):
        f.culprit_orders = ("sql:parse_calls", "sql:version_count")  # a mutex or latch of the library cache: no segment
    return f


@rule("G02", "cpu-bound", "CPU bound", culprits=("sql:cpu", "sql:gets"), family="general", db_cpu_pct=50.0,
      instance_share_pct=50.0, kernel_pct=30.0)
def g02(ctx: Context, th: dict):
    """DB CPU dominates DB time or the host is saturated: SQL efficiency and CPU capacity, not the write path.

    What it detects: DB CPU >= 50 % of DB time, or host CPU busy >= 90 %.
    A finding claiming DB CPU when the host is saturated (busy >= 90 % or CPU demand >= 0.9 of the
    CPUs), whatever DB CPU's share, or when the report cannot tell (neither host CPU nor the CPU count
    printed: said in a caveat); otherwise an annotation of the DB CPU leaf, not ranked: a well-cached
    workload spends DB time on CPU by design.
    A saturated host of which this instance uses under half the busy CPU (Instance CPU '% of busy CPU
    for Instance') is busy with other work: the other consumers come first, and the kernel's part of the
    busy CPU (SYS_TIME, from 30 %: paging, process creation, I/O handling) is named.
    What to do: tune the top SQL by CPU/gets; check host CPU capacity and other consumers.
    """
    ctx.need("db_time_s", "db_cpu_s")
    m = ctx.m
    p = 100.0 * m.v("db_cpu_s") / m.v("db_time_s")
    busy = m.v("host_cpu_busy_pct")
    demand = m.v("cpu_demand_ratio")
    # the CPU assessment's reading: host busy, CPU demand, or DB time waiting for a CPU
    saturated = ctx.assessment.cpu.state == "saturated"
    if p < th["db_cpu_pct"] and not saturated:
        return None
    ev = [db_cpu_evidence(ctx, f">= {th['db_cpu_pct']} %" if p >= th["db_cpu_pct"] else
                          f"< {th['db_cpu_pct']} %: the finding rests on the saturated host"),
          ctx.ev("host_cpu_busy_pct", f">= {SATURATED_BUSY_PCT:g} %"), ctx.ev("cpu_demand_ratio", f">= {SATURATED_DEMAND:g}"),
          ctx.ev("aas"), ctx.ev("cpu_count")]
    # a saturated host is the cause whatever DB CPU's share; otherwise DB CPU >= 50 % says where the time goes
    ctx.claim("DB CPU", m.v("db_cpu_s") if (p >= th["db_cpu_pct"] or saturated) else 0.0)
    unknown = busy is None and demand is None
    mine, kernel = m.v("instance_busy_cpu_pct"), m.v("host_sys_cpu_pct")
    ev[3:3] = [ctx.ev(k) for k in ("instance_busy_cpu_pct", "host_sys_cpu_pct") if m.v(k) is not None]
    others = saturated and busy is not None and mine is not None and mine < th["instance_share_pct"]
    cpus, cores = m.v("cpu_count"), m.v("cpu_cores")
    # a busy % counted over SMT threads understates the cores' use: at most twice it, per thread per core
    smt_busy = min(100.0, busy * cpus / cores) if busy is not None and cpus and cores and cpus >= 2 * cores \
        and not saturated else None
    kernel_note = (f" The kernel takes {pct_text(kernel)} of the busy CPU (SYS_TIME): paging, process creation or I/O "
                   "handling, to see with the OS tools." if saturated and kernel is not None
                   and kernel >= th["kernel_pct"] else "")
    if others:
        rec = (f"The host is busy mostly outside this instance (this instance {pct_text(mine)} of its busy CPU): find the "
               "other consumers first (other instances or databases on the host, non-Oracle processes: top, nmon, "
               "sar), since tuning this instance's SQL frees at most its part." + kernel_note + " Then tune the SQL "
               "with most CPU and logical reads (SQL ordered by CPU Time / Gets). Write-path changes will not help "
               "this part.")
    elif saturated or unknown:
        rec = (("CPU-bound workload on a saturated host: " if saturated else "DB time is mostly CPU: ")
               + "tune the SQL with most CPU and logical reads (SQL ordered by CPU Time / Gets), check host CPU "
               "capacity and non-Oracle consumers." + kernel_note + " Write-path changes will not help this part.")
    elif ctx.load is not None and ctx.load.level == "quiet":
        rec = ("DB time is mostly CPU, but there is little of it: nothing to tune at this load. Under load, the SQL "
               "with most CPU and logical reads (SQL ordered by CPU Time / Gets) is where it would go.")
    elif smt_busy is not None and smt_busy >= 60.0:  # SMT threads idle beside busy cores: little to spare
        rec = (f"DB time is mostly CPU, on a host {pct_text(busy)} busy counting its SMT threads, up to "
               f"{pct_text(smt_busy)} of its cores: little CPU to spare. The SQL with most CPU and logical reads (SQL "
               "ordered by CPU Time / Gets) is where to make it shorter; faster cores would shorten it in proportion "
               "to their speed. Write-path changes will not help this part.")
    else:  # CPU to spare: faster SQL shortens this time, more CPU would not
        rec = ("DB time is mostly CPU, on a host with CPU to spare: the SQL with most CPU and logical reads (SQL "
               "ordered by CPU Time / Gets) is where to make it shorter; more CPUs would not, faster cores would in "
               "proportion to their speed. "
               "Write-path changes will not help this part.")
    f = make_finding(ctx, "G02", 0.0, "high" if busy is not None else "medium", ev, rec,
                     title=(f"CPU bound: {m.cpu_label()} {p:.1f} % of DB time" if saturated or unknown else
                            f"DB time is mostly CPU ({p:.1f} %); the host is not saturated on average")
                           + (f", host {pct_text(busy)} busy" + (f" (its {cpus:g} SMT threads; up to {pct_text(smt_busy)} "
                                                                   f"of its {cores:g} cores)" if smt_busy is not None else "")
                              if busy is not None else
                              f", CPU demand {fmt_value(demand, 'CPUs')} of the CPUs" if demand is not None else "")
                           + (f", {pct_text(mine)} of it this instance" if others else ""))
    over = cpu_over_db_time(ctx)
    if over:
        f.caveats.append(over)
    # the two counters are sampled apart: a few percent over is their noise (zosia: 101.9 %), not an accounting fault
    if mine is not None and mine > 110.0:
        f.caveats.append(f"Instance CPU says this instance used {pct_text(mine)} of the host's busy CPU, more than the "
                         "host counted: the host's CPU figures (a virtual machine's or a partition's accounting) or the "
                         "instance's are off, so the host's busy % is not a sure measure")
    if busy is None and demand is None:  # neither host CPU nor CPU count printed: saturation cannot be told
        f.caveats.append("the report prints neither host CPU use nor the CPU count: whether the host is saturated "
                         "cannot be told from it")
    elif not saturated:
        # CPU on a host with CPU to spare is where the time goes, not a fault: an annotation of the DB CPU leaf
        f.annotates = ("DB CPU",)
    return f


def _class_rule(ctx: Context, th: dict, rid: str, cls: str, title: str, rec: str, events=None):
    """A wait class (or the given events of it) >= th['pct'] of DB time: the finding claims what of its events
    no cause before it claimed, and its title gives the class's share and, when a cause took part of it,
    what is left."""
    ctx.need_events()
    m = ctx.m
    evs = [e for e in m.fg_events.values() if wait_class(e.name, e.wait_class) == cls and e.time_s > 0
           and (events is None or e.name.lower() in events)]
    dbt = m.v("db_time_s")
    t = sum(e.time_s for e in evs)
    if 100.0 * t / dbt < th["pct"]:
        return None
    evs.sort(key=lambda e: -e.time_s)
    claimed = sum(ctx.claim(e.name, e.time_s) for e in evs)
    ev = [Evidence(f"pct_db_time[{e.name}]", round(100.0 * e.time_s / dbt, 2), "%", f"sum >= {th['pct']} %", e.sources)
          for e in evs[:5] if 100.0 * e.time_s / dbt >= 0.05]
    shown = f"{title}: {100.0 * t / dbt:.1f} % of DB time"
    if claimed < t - 0.005 * dbt:
        shown += f" ({100.0 * claimed / dbt:.1f} % not explained by other findings)"  # ranked by impact: maybe first
    return make_finding(ctx, rid, claimed, "high", ev, rec, title=shown)


@rule("G03", "row-lock-contention", "Row lock / application contention", culprits=("segments:row_lock_waits", "sql:elapsed"), family="general", pct=5.0)
def g03(ctx: Context, th: dict):
    """Sessions wait on each other's row locks (enq: TX - row lock contention, TM, ...): an application
    design problem, not a write-path one. What to do: find the blocking sessions/rows (Segments by Row
    Lock Waits, ASH blocking_session), shorten transactions, avoid hot rows, index foreign keys (TM)."""
    commits_slow = ctx.ledger is not None and ctx.ledger.claimed_s("R01") > 0
    # locks only: the Application class also holds external procedure calls, SQL*Net break/reset, PL/SQL sleeps
    locks = {e.name.lower() for e in ctx.m.fg_events.values()
             if e.name.lower().startswith(("enq: tx - row lock", "enq: tm", "enq: ul", "enq: tx - allocate itl",
                                           "wait for table lock", "enq: tx - contention"))}
    return _class_rule(ctx, th, "G03", "Application", "Application (row lock) contention", events=locks,
                       rec=
                       "Find the blockers (ASH blocking_session, Segments by Row Lock Waits), shorten transactions, avoid "
                       "hot rows/sequences in tables, index foreign keys (enq: TM)."
                       + (" The holders' transactions also wait on the slow redo writes of R01 (their DML waits on LGWR, "
                          "their commits take long): fixing R01 shortens the holds that include those waits, so fix both."
                          if commits_slow else ""))


#: What the dominant concurrency wait says, the sections that name its culprits, and the fix.
CONCURRENCY_CAUSES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (r"^(library cache|cursor: |latch: shared pool|latch: library cache|latch: row cache)",
     "parsing and cursor sharing", ("sql:parse_calls", "sql:version_count"),
     "Sessions serialise on shared cursors: hard parsing (see G08), cursors with many child versions (SQL ordered by "
     "Version Count, V$SQL_SHARED_CURSOR), very frequent executions of one statement ('cursor: pin S'). Use bind "
     "variables, keep cursors open, fix the reason child cursors are not shared; bigger shared pool only for reloads."),
    (r"^(buffer busy waits|latch: cache buffers chains|enq: tx - index contention|latch: cache buffers lru)",
     "hot blocks", ("segments:buffer_busy_waits", "segments:logical_reads", "sql:gets"),
     "Many sessions want the same blocks: find them in Segments by Buffer Busy Waits / Logical Reads. Reduce the "
     "logical reads of the SQL touching them, spread hot index leaf blocks (hash-partitioned or reverse-key index for "
     "sequence keys, larger sequence cache), use ASSM and more freelists for insert-heavy tables."),
    (r"^(row cache lock|enq: sq)", "the data dictionary / sequences", ("sql:executions",),
     "Sessions wait on dictionary cache entries: usually sequences with NOCACHE or a small cache (raise CACHE), "
     "or DDL / grants during the workload."),
)


@rule("G04", "concurrency", "Concurrency waits (latches, mutexes, buffer busy)", culprits=("segments:buffer_busy_waits", "sql:parse_calls"), family="general", pct=10.0)
def g04(ctx: Context, th: dict):
    """Latch, mutex, library cache and buffer busy waits >= 10 % of DB time. The dominant event names
    the cause and the sections that show the culprits: library cache / cursor / shared pool waits are
    parsing and cursor sharing (SQL ordered by Parse Calls / Version Count); buffer busy, cache buffers
    chains and index contention are hot blocks (Segments by Buffer Busy Waits / Logical Reads); row
    cache locks are the dictionary, mostly sequences."""
    f = _class_rule(ctx, th, "G04", "Concurrency", "Concurrency waits",
                    "Look for hot blocks (Segments by Buffer Busy Waits), hard parsing and cursor sharing, hot "
                    "right-hand indexes and sequences; reduce concurrency on the hot objects.")
    if f is None:
        return None
    top = max((e for e in ctx.m.fg_events.values() if wait_class(e.name, e.wait_class) == "Concurrency"),
              key=lambda e: e.time_s)
    for pattern, cause, orders, advice in CONCURRENCY_CAUSES:
        if re.search(pattern, top.name.lower()):
            f.title += f", mostly {top.name}: {cause}"
            f.recommendation = advice
            f.culprit_orders = orders
            break
    else:
        f.title += f", mostly {top.name}"
    return f


@rule("G05", "cluster-waits", "RAC cluster waits", culprits=("sql:cluster", "segments:gc_buffer_busy", "segments:cr_blocks_received"), family="general", pct=10.0)
def g05(ctx: Context, th: dict):
    """gc* waits >= 10 % of DB time. What to do: interconnect health, application partitioning/service
    affinity, hot blocks shipped between instances (gcs log flush sync ties it to LGWR)."""
    return _class_rule(ctx, th, "G05", "Cluster", "RAC cluster waits",
                       "Check interconnect latency and drops, route related work to one instance (services), reduce hot "
                       "blocks shipped between instances; 'gc buffer busy' plus 'gcs log flush sync' link it to LGWR speed.")


READ_EVENTS = ("db file sequential read", "cell single block physical read")


def _secs(v: float) -> str:
    return f"{v:,.0f} s" if v >= 10 else fmt_num(v, 's')


def _largest_read(ctx: Context) -> str:
    """The read event with most time beside the single-block ones, with its own average when printed."""
    e = max((e for e in ctx.m.fg_events.values() if e.name.lower() in ALL_READ_EVENTS and e.name.lower() not in READ_EVENTS),
            key=lambda e: e.time_s, default=None)
    if e is None:
        return "multi-block reads"
    if (e.waits or 0) > 0 and e.avg_ms is not None:  # a read of many blocks: its time depends on its size
        return f"{e.name}, {fmt_num(e.avg_ms, 'ms')} a wait for reads of several blocks"
    return e.name


#: The foreground waits that are reads of data (TEMP reads are R09's, direct writes and local write wait are not reads).
ALL_READ_EVENTS = frozenset({"db file sequential read", "db file scattered read", "db file parallel read", "direct path read",
                             "cell single block physical read", "cell multiblock physical read", "cell list of blocks physical read",
                             "read by other session", "cell smart table scan", "cell smart index scan", "direct path read (lob)"})


@rule("G06", "read-io-bound", "User I/O (reads) bound", culprits=("sql:user_io", "sql:reads", "segments:physical_reads"), family="general", pct=10.0, read_ms=10.0)
def g06(ctx: Context, th: dict):
    """Foreground read waits (db file sequential/scattered/parallel read, direct path read, cell reads, read
    by other session) >= 10 % of DB time: the read path - SQL access paths, caching, storage read latency.
    Only read events count: TEMP I/O (R09), local write wait (R11) and direct path writes are not reads.

    When single-block reads are slow (average >= 10 ms) or their latency is not printed (an ASH report:
    said in a caveat), a finding that claims the read time. When they are fast, the reads are where the
    time goes, not a fault: an annotation of the read leaves of the ledger, and the SQL (G07) is where to
    tune. Single-block reads speak for the read path only when they hold at least a tenth of its time: 109
    of them (0.08 s) beside 26,366 s of direct path reads say nothing of how fast those are (a caveat, and
    the finding claims the time).
    """
    f = _class_rule(ctx, th, "G06", "User I/O", "User I/O reads",
                    "Read-path problem: tune the SQL with most physical reads (SQL ordered by Reads / User I/O), "
                    "check read latency of the storage and buffer cache sizing.", events=ALL_READ_EVENTS)
    if f is None:
        return None
    read_time = sum(e.time_s for e in ctx.m.fg_events.values() if e.name.lower() in ALL_READ_EVENTS)
    timed = sorted((e for e in (ctx.m.fg(n) for n in READ_EVENTS)
                    if e is not None and (e.waits or 0) > 0 and e.time_s > 0 and e.avg_ms is not None),
                   key=lambda e: -e.time_s)
    reads = [e for e in timed if e.time_s >= 0.1 * read_time]
    # a buffered multiblock read's latency when no single-block read is printed; not direct reads (their size, and
    # before 10g TEMP reads), nor 'read by other session' (a wait for another session's read)
    multi = [] if timed else sorted((e for e in ctx.m.fg_events.values() if e.name.lower() in MULTIBLOCK_READS
                                     and (e.waits or 0) > 0 and e.time_s > 0 and e.avg_ms is not None),
                                    key=lambda e: -e.time_s)
    if multi and multi[0].avg_ms < th["read_ms"]:  # no single-block read printed: a larger read that is fast says it
        reads = multi[:1]
    slow = [e for e in reads if (e.avg_ms or 0.0) >= th["read_ms"]]
    for e in reads:
        f.evidence.append(Evidence(f"avg_ms[{e.name}]", round(e.avg_ms, 3), "ms", f">= {th['read_ms']} ms is slow", e.sources))
    if slow:
        f.culprit_orders = ("tablespace:read_time", "sql:user_io", "sql:reads", "segments:physical_reads")
        f.title += f"; single-block reads slow ({slow[0].avg_ms:.1f} ms)"
        f.recommendation = ("Reads are slow as well as many: check the storage (latency by file/tablespace in File IO "
                            "Stats, queueing, other tenants) and tune the SQL with most physical reads (SQL ordered by Reads).")
    elif timed and not reads:  # single-block reads too few to speak for the rest of the read time
        f.caveats.append(f"single-block reads are {_secs(sum(e.time_s for e in timed))} of the {_secs(read_time)} of "
                         f"reads: their latency ({fmt_num(timed[0].avg_ms, 'ms')}) does not say how fast the others "
                         f"({_largest_read(ctx)}) are")
    elif not reads and multi:  # a read of many blocks takes longer by its size: slow storage is not told by it
        f.caveats.append(f"no single-block read is printed, and {multi[0].name} averages {multi[0].avg_ms:.1f} ms a "
                         "wait, which for a read of many blocks depends on its size as much as on the storage")
    elif not reads:  # no wait count or latency printed (an ASH report samples, it does not time): not "fast"
        f.caveats.append("the report prints no read latency (no wait counts): whether the reads are slow or only "
                         "many cannot be told from it; an AWR report of the same window can")
        if ctx.report.kind == "ash":  # it has no SQL ordered by Reads: its own sections name the reads
            f.recommendation = ("Read-path problem: tune the statements ASH saw waiting on the reads (Top SQL with Top "
                                "Events) and look at the objects and files read (Top DB Objects, Top DB Files); an "
                                "AWR report of the same window gives the read latency and buffer cache advice.")
    else:
        f.title += f"; {'single-block reads' if timed else reads[0].name} fast ({reads[0].avg_ms:.1f} ms)"
        bypass = sorted((e for e in ctx.m.fg_events.values() if e.name.lower().startswith(BYPASS_READS) and e.time_s > 0),
                        key=lambda e: -e.time_s)
        if bypass and sum(e.time_s for e in bypass) >= 0.5 * read_time:
            # the single-block latency says nothing of the direct reads, and no buffer cache holds what they read
            top = bypass[0]
            share = 100.0 * sum(e.time_s for e in bypass) / read_time
            f.title += f"; most of it {top.name} ({share:.0f} % of the read time)"
            f.recommendation = (
                f"{'Single-block reads are' if timed else reads[0].name + ' is'} fast, but {share:.0f} % of the read "
                f"time is {top.name}"
                + (f" ({top.avg_ms:.1f} ms a wait)" if top.avg_ms is not None else "")
                + ": scans that bypass the buffer cache, so a larger cache or a KEEP pool does not help them. Tune the "
                "scans (SQL ordered by Reads and Segments by Direct Physical Reads: access paths, partition pruning, "
                "parallel query), and judge the storage by the direct reads' latency per block (File IO Stats), not by "
                "the single-block reads'."
                + (" Before 10g 'direct path read' also counts the sorts and hash joins read back from TEMP: see the "
                   "TEMP tablespace's reads and the sort area / PGA sizing." if (ctx.report.version or "")[:2] in
                   ("8.", "9.") else ""))
        else:
            f.recommendation = ("Reads are fast but many: the volume is where the time goes. Tune the SQL with most "
                                "physical reads (SQL ordered by Reads / User I/O: access paths, full scans), consider a "
                                "larger buffer cache (Buffer Pool Advisory). Faster storage would gain little.")
        f.annotates = tuple(e.name for e in ctx.m.fg_events.values() if e.name.lower() in ALL_READ_EVENTS and e.time_s > 0)
    return f


#: Reads of several blocks into the buffer cache: their latency, when fast, says the storage is
MULTIBLOCK_READS = frozenset({"db file scattered read", "db file parallel read", "cell multiblock physical read",
                              "cell list of blocks physical read"})

#: Reads that do not go through the buffer cache (direct path, Exadata smart scans)
BYPASS_READS = ("direct path read", "cell smart")
