"""Commit-path rules: R01 (slow redo writes), R02 (non-I/O commit latency), R03 (commit frequency), R14 (Data
Guard SYNC), R15 (adaptive log file sync polling), R17 (a commit wait the report cannot split).
Each claims the parts of log file sync the assessment's commit path gives its owner (assessment/commit.py):
the parts add up to the wait, so where commits matter the commit causes claim all of it, and a part grows or
shrinks with its figures instead of appearing at a cliff."""
from __future__ import annotations

from ..assessment import band
from ..assessment.commit import LFS, REDO_WRITE_OK_MS, CommitAttribution, pathological
from ..metrics.values import Source
from ..whatif import w1_faster_redo, w2_commit_batching, w5_lgwr_cpu
from ..numfmt import fmt_num
from .base import Context, Evidence, Needs, cap, make_finding, pct_text, rule


def _ca(ctx: Context) -> CommitAttribution:
    ctx.need_events()
    ca = ctx.commit
    if ca is None:
        raise Needs("log file sync waits (foreground wait events)")
    if ca.L is None:
        raise Needs("Background Wait Events (log file parallel write) or 'redo write time' + 'redo writes'")
    return ca


def _precision_cap(ctx: Context, ca: CommitAttribution, conf: str) -> str:
    """C.0 precision gate: a coarse key input (LGWR latency or log file sync from a Top-N projection) caps at Medium."""
    mv = ctx.m.get(ca.L_id) if ca.L_id else None
    lfs = ctx.m.get("lfs_ms")
    if (mv is not None and mv.low_precision) or (lfs is not None and lfs.low_precision):
        return cap(conf, "medium")
    return conf


def _material(ca: CommitAttribution, th: dict) -> bool:
    """The commit path matters: log file sync >= lfs_pct_db_time of DB time, or a pathological wait per commit
    (the same gate, 5 % and 20 ms by default, for every commit cause)."""
    return (ca.pct_db_time or 0.0) >= th["lfs_pct_db_time"] or pathological(ca, th["pathology_lfs_ms"])


def _lfs_evidence(ctx: Context, ca: CommitAttribution, th: dict) -> list[Evidence]:
    return [ctx.event_ev(LFS, f">= {th['lfs_pct_db_time']} %"), ctx.ev("lfs_ms", f">= {th['pathology_lfs_ms']} ms pathological")]


def _parts_evidence(ca: CommitAttribution, owner: str) -> list[Evidence]:
    """The parts of the commit wait this cause claims, each with its formula and figures."""
    return [Evidence(f"commit_part[{p.name}]", round(p.ms, 4), "ms", None, (),
                     f"{fmt_num(p.seconds, 's')} over {ca.lfs_waits:,.0f} waits; {p.basis}") for p in ca.parts_of(owner) if p.ms > 0]


def _of_wait(ca: CommitAttribution, ms: float) -> str:
    return f"{fmt_num(ms, 'ms')} of each {fmt_num(ca.lfs_ms, 'ms')} commit wait"


#: Foreground waits that are LGWR's writes seen by another name: slow redo writes cause them (R01 explains them).
LGWR_DEPENDENT = ("log buffer space", "log file switch completion")


@rule("R01", "redo-write-io-latency", "Redo write I/O latency (LGWR I/O)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, lgwr_ms=5.0, lgwr_ms_flash=2.0, poor_ms=10.0, pathology_lfs_ms=20.0,
      target_ms=0.5, lfpw_tail_pct=10.0, read_ms=10.0)
def r01(ctx: Context, th: dict):
    """Commits wait on LGWR writes slower than healthy redo storage writes.

    What it detects: where the commit path matters (log file sync >= 5 % of DB time, or pathological per
    commit), the part of each commit wait that LGWR's write latency L takes above a healthy write (1 ms):
    alpha x (L - 1 ms) per wait (alpha: a commit waits for the write in progress, then its own). Graded
    by L: fair (1-5 ms), slow (from lgwr_ms, 5 ms; 2 ms on declared flash), poor (from 10 ms). Without CPU
    pressure in the assessment, a share of the non-I/O rest that grows from 0 at L = 5 ms to all of it
    at 10 ms is queueing behind the slow writes, and claimed here too. Foreground waits on LGWR by
    another name (log buffer space, log file switch completion) shrink with L: their share 1 - 1 ms / L.
    Why it matters: every commit waits for its redo to be on disk.
    What to do: dedicated low-latency redo storage (flash/NVMe/PMEM or write-cached array, not
    RAID-5/6), isolated from datafile and archive I/O, async I/O enabled, members on equally fast
    devices; reduce redo volume where recoverability allows.
    References: spec R01/C.2; Ault (18.7 ms disk vs 0.104 ms SSD); Closson; Oracle 'log file sync'.
    """
    ca = _ca(ctx)
    m = ctx.m
    L = ca.L_parts
    limit = th["lgwr_ms_flash"] if ctx.config.get("redo_on_flash") else th["lgwr_ms"]
    dep_s = m.fg_time("log buffer space") + m.fg_time("log file switch completion")
    # LGWR write latency in tier poor is pathological for redo (C.0 spirit): reported whenever foreground time
    # waits on LGWR at all, with its (small) impact
    poor_tier = L >= th["poor_ms"] and (ca.lfs_time_s > 0 or dep_s > 0)
    material = _material(ca, th)
    if not (material or poor_tier) or L <= REDO_WRITE_OK_MS:
        return None
    mine = ca.parts_of("R01")
    ms = ca.part_ms("R01")
    lfs_saved = ctx.claim(LFS, ca.part_s("R01"))
    frac = max(0.0, 1.0 - REDO_WRITE_OK_MS / L)
    dep_saved = 0.0
    for e in LGWR_DEPENDENT:  # sessions waiting on LGWR by another name: faster writes shrink them too
        got = ctx.claim(e, m.fg_time(e) * frac)
        if got > 0:
            ctx.explain(e)
        dep_saved += got
    if lfs_saved + dep_saved <= 0:
        return None
    grade = band("redo write", L)
    slow = L >= limit
    corro = []
    tail = m.v("lfpw_tail_share_8ms")
    if tail is not None and tail >= th["lfpw_tail_pct"]:
        corro.append(ctx.ev("lfpw_tail_share_8ms", f">= {th['lfpw_tail_pct']} %"))
    io = ctx.assessment.io.get("single-block read") if ctx.assessment is not None else None
    if io is not None and io.state in ("slow", "poor"):
        e = m.fg("db file sequential read") or m.fg("cell single block physical read")
        corro.append(Evidence(f"avg_ms[{io.source.split(',')[0]}]", round(io.ms, 2), "ms",
                              f"{io.state} single-block reads (storage also slow)", e.sources if e else ()))
    if m.fg("log file switch completion"):
        corro.append(ctx.event_ev("log file switch completion", "> 0 (also waits on LGWR)"))
    conf = ("high" if material and slow and corro else "medium" if material and slow else
            "medium" if material else "low")
    conf = _precision_cap(ctx, ca, conf)
    queue = next((p for p in mine if p.name == "queueing behind slow writes" and p.ms > 0), None)
    caveats = list(ca.notes)
    dbt = m.v("db_time_s")
    storage_s = sum(p.seconds for p in mine if p is not queue)
    range_pct = None
    if queue is not None:
        caveats.append(f"{queue.seconds:,.0f} s of the non-I/O rest of log file sync ({fmt_num(queue.ms, 'ms')} per commit) are "
                       f"taken as queueing behind slow LGWR writes ({queue.basis}; the CPU assessment shows no "
                       f"pressure: {ctx.assessment.cpu.queue_why}). If it is not I/O, faster redo storage saves only "
                       f"{storage_s:,.0f} s of log file sync (the impact range's low end)")
        if dbt:
            range_pct = (100.0 * (storage_s + dep_saved) / dbt, 100.0 * (lfs_saved + dep_saved) / dbt)
    if ca.cpu_evidence:
        caveats.append("the CPU assessment shows pressure (" + "; ".join(ca.cpu_evidence) + "): part of the commit "
                       "wait is CPU / scheduling, claimed by R02, not here")
    if not material:
        caveats.append("log file sync is not material in this interval: the finding rests on the LGWR write latency itself "
                       "(tier poor) and the foreground time that waits on LGWR")
    ev = _lfs_evidence(ctx, ca, th) + [
        Evidence(ca.L_id or "lgwr", round(ca.L, 3), "ms", f"{grade}: healthy <= {REDO_WRITE_OK_MS:g} ms, slow >= {limit:g} ms",
                 m.get(ca.L_id).sources if ca.L_id in m else ()),
    ] + _parts_evidence(ca, "R01") + [
        ctx.ev("redo_write_ms"), ctx.ev("lfpw_write_ratio"),
        Evidence("lgwr_dependent_s", round(dep_s, 3), "s", None, note="log buffer space + log file switch completion (FG)"),
    ] + corro
    # W1 on the same model: all the queueing behind writes shrinks with them, so a = alpha + queued / L; at the
    # healthy latency it recovers exactly what the finding claims, at the faster targets more
    queued = sum(p.ms for p in ca.parts if p.name in ("queueing behind slow writes", "queueing behind healthy writes"))
    a = ca.alpha + queued / L
    wi = [w1_faster_redo(x, L, ca.lfs_ms, ca.lfs_waits, ca.lfs_time_s, dbt, a,
                         writes_per_s=m.v("redo_write_iops"), lgwr_dependent_s=dep_s)
          for x in sorted({0.1, th["target_ms"], REDO_WRITE_OK_MS}) if x < L]
    title = (f"Redo writes {grade}: {fmt_num(L, 'ms')} per LGWR write (healthy <= {REDO_WRITE_OK_MS:g} ms) take "
             + _of_wait(ca, ms))
    rec = ("Put the online redo logs on dedicated low-latency storage (flash/NVMe/PMEM or a write-cached "
           "array, not RAID-5/6), isolated from datafile and archive-read I/O; make sure async I/O is on "
           "(disk_asynch_io, filesystemio_options); keep all members on equally fast devices (R13); "
           "reduce redo volume where recoverability allows (NOLOGGING direct-path loads, needless indexes).")
    if not slow:
        rec = (f"LGWR writes at {fmt_num(L, 'ms')} are not slow for disks but are for redo on flash: the part above "
               f"{REDO_WRITE_OK_MS:g} ms is what faster redo storage could save. " + rec)
    return make_finding(ctx, "R01", lfs_saved + dep_saved, conf, ev, rec, title=title,
                        confirm="OS iostat on the redo devices (await ~ LFPW), LGWR trace 'Warning: log write elapsed time', "
                                "LFPW histogram tail.",
                        refute="A run queue or LGWR off-CPU time (then R02), or redo devices fast in iostat while LFPW is slow "
                               "(LGWR scheduling).",
                        whatif=wi, caveats=caveats, range_pct=range_pct)


@rule("R02", "non-io-commit-latency", "Non-I/O commit latency (LGWR CPU / scheduling / post-wait)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, pathology_lfs_ms=20.0, o_normal_ms=0.2)
def r02(ctx: Context, th: dict):
    """Commits wait longer than LGWR's writes and the posting of a commit explain.

    What it detects: where the commit path matters, the non-I/O part of each commit wait beyond Data
    Guard (R14), polling (R15) and the posting every commit needs: the measured post/wake-up overhead
    ('redo synch time overhead', 12c+); CPU / scheduling when the CPU assessment shows pressure (host
    saturated, a run queue, Resource Manager); otherwise 'cause undetermined', naming the figures the
    report lacks. Graded by its size: no ratio or residual cliff.
    Why it matters: faster storage will not help this part of the commit time.
    What to do: remove CPU saturation / run queue, never lower LGWR priority (raise it), reduce
    commit rate, review adaptive log file sync.
    References: spec R02/C.2; Closson; Millsap; Morle via Savvinov (queueing gives 1-2x).
    """
    ca = _ca(ctx)
    m = ctx.m
    if not _material(ca, th):
        return None
    mine = [p for p in ca.parts_of("R02") if p.ms > 0]
    seconds = ctx.claim(LFS, ca.part_s("R02"))
    if seconds <= 0:
        return None
    ms = ca.part_ms("R02")
    names = {p.name for p in mine}
    cpu = ctx.assessment.cpu
    cause = " and ".join(x for x in ("CPU / scheduling" if "CPU / scheduling" in names else "",
                                     "post/wake-up overhead" if "post/wake-up overhead" in names else "",
                                     "cause undetermined" if "cause undetermined" in names else "") if x)
    conf = "high" if "CPU / scheduling" in names else "medium" if "post/wake-up overhead" in names else "low"
    conf = _precision_cap(ctx, ca, conf)
    if ca.L_alt:
        conf = "low"
    dbt = m.v("db_time_s")
    title = (f"Non-I/O commit latency ({cause}): {_of_wait(ca, ms)} beyond LGWR's {fmt_num(ca.L_parts, 'ms')} write")
    rng = None
    if ca.non_io_range_s and dbt:
        lo, hi = ca.non_io_range_s
        rng = (100.0 * min(seconds, lo) / dbt, 100.0 * max(seconds, hi - (ca.non_io_part_s or 0.0) + seconds) / dbt)
        title += f"; non-I/O share {fmt_num(100.0 * lo / dbt)}-{fmt_num(100.0 * hi / dbt, '%')} of DB time"
    ev = _lfs_evidence(ctx, ca, th) + [
        Evidence("lfs_lfpw_ratio", round(ca.lfs_ms / ca.L, 3), "ratio", None),
        Evidence("non_io_residual_ms", round(ca.O_ms or 0.0, 3), "ms", None, note=f"lfs_ms - alpha x L, alpha = {ca.alpha}"),
    ] + _parts_evidence(ca, "R02") + [ctx.ev("fg_wakeup_overhead_us"), ctx.ev("host_cpu_busy_pct"), ctx.ev("cpu_queue_aas")] \
        + [Evidence("cpu_evidence", None, "", None, note=c) for c in ca.cpu_evidence]
    caveats = list(ca.notes)
    todo = []
    if "CPU / scheduling" in names:
        todo.append("Remove the CPU pressure the assessment shows (" + "; ".join(ca.cpu_evidence) + "): fewer active "
                    "sessions via pool sizing, the SQL with most CPU, Resource Manager plans that throttle foregrounds; "
                    "never lower LGWR's priority - raise it (OS scheduling class; _high_priority_processes only with "
                    "Oracle Support).")
    if "post/wake-up overhead" in names:
        todo.append("The post/wake-up overhead is LGWR posting and the sessions being scheduled again: keep LGWR and the "
                    "committing sessions on CPU (no CPU caps on LGWR, enough idle CPU), check the OS scheduler.")
    if "cause undetermined" in names:
        und = next(p for p in mine if p.name == "cause undetermined")
        lacks = ca.missing
        caveats.append(f"{fmt_num(und.ms, 'ms')} per commit are not explained by the report's figures ({cpu.queue_why}"
                       + (f"; it lacks {', '.join(lacks)}" if lacks else "") + "): candidates are LGWR scheduling, "
                       "log parallelism/strands, RAC broadcast-on-commit, Data Guard")
        todo.append("Find what the report cannot show: " + (", ".join(lacks) + " for this window; " if lacks else "")
                    + "the LGWR trace (log write warnings) and the OS run queue (vmstat, sar -q) during the window.")
    todo.append("Fewer commits (R03) shorten every part.")
    return make_finding(ctx, "R02", seconds, conf, ev, " ".join(todo), title=title,
                        confirm="vmstat/sar run queue, LGWR on-CPU vs off-CPU time, 12c+ 'redo synch time overhead (usec)'.",
                        refute="iostat await on the redo devices close to log file sync time (then it is I/O: R01).",
                        whatif=[w5_lgwr_cpu(ca.lfs_waits, ca.O_ms or 0.0, dbt, th["o_normal_ms"])], caveats=caveats,
                        range_pct=rng)


@rule("R03", "chatty-commits", "Commit frequency (a redo write and a post per commit)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, waits_per_commit_lo=0.7, waits_per_commit_hi=1.3,
      exec_per_commit=5.0, redo_per_commit_B=2048.0, commit_rate=100.0, batch_factor=5.0, pathology_lfs_ms=20.0)
def r03(ctx: Context, th: dict):
    """Each commit costs at least a redo write at healthy latency and a post: many commits add up.

    What it detects: where the commit path matters, the part of each commit wait a healthy system still
    pays: alpha x min(L, 1 ms) for the write, and 0.2 ms for posting when the report does not measure the
    overhead. Confidence high when the commits are chatty: about one log file sync per commit (0.7-1.3)
    and <= 5 executions per commit, <= 2 KB redo per commit or >= 100 commits/s.
    Why it matters: storage cannot make a commit free; fewer commits can.
    What to do: commit per business transaction / N rows, array DML; COMMIT WRITE BATCH NOWAIT
    (or COMMIT_LOGGING/COMMIT_WAIT) only where losing the last transactions is acceptable.
    References: spec R03; Oracle Performance Tuning Guide (log file sync).
    """
    ca = _ca(ctx)
    m = ctx.m
    if not _material(ca, th):
        return None
    seconds = ctx.claim(LFS, ca.part_s("R03"))
    if seconds <= 0:
        return None
    ms = ca.part_ms("R03")
    chat = []
    for k, op, t in (("exec_per_commit", "<=", th["exec_per_commit"]), ("redo_per_commit_B", "<=", th["redo_per_commit_B"]),
                     ("commit_rate", ">=", th["commit_rate"])):
        v = m.v(k)
        if v is not None and (v <= t if op == "<=" else v >= t):
            chat.append(ctx.ev(k, f"{op} {t:g}"))
    wpc = m.v("lfs_waits_per_commit")
    one_each = wpc is not None and th["waits_per_commit_lo"] <= wpc <= th["waits_per_commit_hi"]
    corro = [ctx.ev("redo_write_size_B", "<= 8192 B")] if (m.v("redo_write_size_B") or 1e12) <= 8192 else []
    cpw = m.v("commits_per_redo_write")
    if cpw is not None and cpw <= 1.5:
        corro.append(ctx.ev("commits_per_redo_write", "~1 (little group commit)"))
    conf = "high" if chat and one_each else "medium" if chat or one_each else "low"
    rate = m.v("commit_rate")
    e = m.v("elapsed_s")
    per_s = rate if rate is not None else (ca.lfs_waits / e if e else None)
    what = "commits/s" if rate is not None else "log file sync waits/s"
    caveats = list(ca.notes)
    if wpc is not None and not one_each:
        caveats.append(f"{fmt_num(wpc)} log file sync waits per commit" + (
            ": commits inside a PL/SQL call wait once per call, so the calls, not each commit, pay the wait"
            if wpc < th["waits_per_commit_lo"] else ": more waits than user commits (recursive commits, DDL)"))
    band = f"[{th['waits_per_commit_lo']}, {th['waits_per_commit_hi']}]"
    ev = _lfs_evidence(ctx, ca, th) + _parts_evidence(ca, "R03") + [
        ctx.ev("lfs_waits_per_commit", f"in {band}: one wait per commit" if one_each or wpc is None else
               f"outside {band}: not one wait per commit, so not high confidence")] + chat + corro
    B = th["batch_factor"]
    return make_finding(ctx, "R03", seconds, conf, ev,
                        "Commit once per business transaction or every N rows, use array DML; where durability semantics "
                        "allow, COMMIT WRITE BATCH NOWAIT / COMMIT_LOGGING=BATCH, COMMIT_WAIT=NOWAIT (the last "
                        "transactions can be lost in a crash); avoid NOCACHE sequences and other recursive commits.",
                        title=(f"Commit frequency: {per_s:,.0f} {what}, each paying a redo write and a post: " if per_s
                               is not None else "Commit frequency: each commit pays a redo write and a post: ")
                              + _of_wait(ca, ms),
                        confirm="SQL ordered by Executions: many single-row DML per commit; application commit points.",
                        refute="Few executions per commit with large redo per commit.",
                        whatif=[w2_commit_batching(B, ca.lfs_waits, ca.lfs_time_s, m.v("db_time_s"), ca.lfs_ms)],
                        caveats=caveats)


@rule("R14", "dataguard-sync-commit", "Data Guard SYNC transport in the commit path", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, pathology_lfs_ms=20.0)
def r14(ctx: Context, th: dict):
    """Commits wait for the standby: SYNC redo transport adds the network round trip and standby I/O.

    What it detects: background remote-sync events (SYNC Remote Write; LNS wait on SENDREQ,
    LGWR-LNS wait on channel): their latency, at most the non-I/O part of each commit wait, is claimed.
    What to do: network RTT and standby redo log I/O, FASTSYNC/NOAFFIRM, or ASYNC per protection mode.
    References: spec R14 (event names partly unverified).
    """
    ca = _ca(ctx)
    if ctx.m.v("remote_sync_ms") is None:
        raise Needs("remote_sync_ms (SYNC Remote Write / LNS wait events)")
    if not _material(ca, th):
        return None
    seconds = ctx.claim(LFS, ca.part_s("R14"))
    if seconds <= 0:
        return None
    return make_finding(ctx, "R14", seconds, "medium",
                        _lfs_evidence(ctx, ca, th) + [ctx.ev("remote_sync_ms"), ctx.ev("non_io_residual_ms")]
                        + _parts_evidence(ca, "R14"),
                        "Check network round trip and standby redo log I/O; consider FASTSYNC/NOAFFIRM or ASYNC "
                        "transport if the protection mode allows.",
                        title=f"Data Guard SYNC transport: {_of_wait(ca, ca.part_ms('R14'))}",
                        confirm="v$dataguard stats / standby redo log write latency.",
                        refute="No SYNC destination in log_archive_dest_n.", caveats=list(ca.notes))


@rule("R15", "adaptive-lfs-polling", "Adaptive log file sync (polling) inflating commits", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, pathology_lfs_ms=20.0)
def r15(ctx: Context, th: dict):
    """Foregrounds poll for LGWR instead of being posted, adding up to a poll interval per commit.

    What it detects: 11.2+ 'redo synch poll writes' / 'redo synch writes' (the polled share).
    Condition of the claim: a polled commit overshoots the end of its write by at most one poll
    interval, and the interval follows LGWR's expected write time. So polling adds at most
    max(L, 1 ms) per polled commit: the finding claims polled share x that bound of each commit
    wait's non-I/O part, never the whole of a commit that averages seconds while LGWR writes take
    milliseconds. The rest goes to R02.
    What to do: confirm in the LGWR trace ('Log file sync switching to polling'); discuss
    _use_adaptive_log_file_sync=FALSE with Oracle Support.
    References: spec R15; Pythian / dbaclass on adaptive log file sync.
    """
    ca = _ca(ctx)
    ctx.need("poll_share")
    if not _material(ca, th):
        return None
    seconds = ctx.claim(LFS, ca.part_s("R15"))
    if seconds <= 0:
        return None
    poll = ctx.m.v("poll_share") or 0.0
    bound_ms = ca.part_ms("R15")
    return make_finding(ctx, "R15", seconds, "medium",
                        _lfs_evidence(ctx, ca, th) + [ctx.ev("poll_share"), ctx.ev("lfs_lfpw_ratio")]
                        + _parts_evidence(ca, "R15"),
                        "Confirm polling in the LGWR trace; if switching hurts latency, discuss "
                        "_use_adaptive_log_file_sync=FALSE with Oracle Support.",
                        title=f"Adaptive log file sync polling: {poll:.0f} % of commits polled: {_of_wait(ca, bound_ms)}",
                        confirm="LGWR trace 'Log file sync switching to polling'.", refute="poll_share low in other intervals.",
                        caveats=list(ca.notes))


@rule("R17", "commit-wait-unsplit", "Commit waits whose I/O and non-I/O parts the report cannot split",
      culprits=("sql:commits",), lfs_pct_db_time=5.0)
def r17(ctx: Context, th: dict):
    """log file sync takes a material share of DB time (or of sampled foreground activity in an ASH
    report) but the report prints no LGWR write time ('log file parallel write' in Background Wait
    Events, or 'redo write time' with 'redo writes'), so R01-R03 cannot tell slow redo writes from CPU,
    scheduling or commit rate. The finding claims the commit wait and says what is needed to split it.

    What to do: read LGWR's write latency for the same window (an AWR report: Background Wait Events
    'log file parallel write'; OS iostat on the redo devices); if writes are slow (>= 5 ms) fix the
    redo storage (R01), if they are fast the commit wait is CPU/scheduling or the commit rate (R02/R03).
    """
    ctx.need_events()
    ca = ctx.commit
    lfs = ctx.m.fg(LFS)
    if lfs is None or lfs.time_s <= 0 or (ca is not None and ca.L is not None):
        return None
    pct = ctx.m.pct_db_time(LFS) or 0.0
    if pct < th["lfs_pct_db_time"]:
        return None
    seconds = ctx.claim(LFS, lfs.time_s)
    ash = ctx.report.kind == "ash"
    lgwr = ctx.m.bg("log file parallel write")
    ev = [ctx.event_ev(LFS, f">= {th['lfs_pct_db_time']} %")]
    if lfs.avg_ms is not None:
        ev.append(Evidence(f"avg_ms[{LFS}]", round(lfs.avg_ms, 3), "ms", None, lfs.sources))
    if lgwr is not None:
        ev.append(Evidence("bg_time_s[log file parallel write]", round(lgwr.time_s, 3), "s", None, lgwr.sources,
                           "LGWR's write time, without a write count: no latency per write"))
    caveats = ["the report has no LGWR write latency: the commit wait cannot be split into I/O and non-I/O parts "
               "(spec C.2), so no cause is asserted"]
    writing = _ash_redo_writing(ctx) if ash else None
    if writing is not None:
        ev.append(writing)
        caveats.append(f"the redo writers were in 'log file parallel write' {writing.value:g} sessions on average "
                       "(sampled): " + ("they were writing most of the window, so commits may queue behind writes as "
                                        "much as behind each write's latency" if writing.value >= 0.5 else
                                        "they were idle most of the window"))
    base = "of sampled foreground activity" if ash else "of DB time"
    per = f" at {fmt_num(lfs.avg_ms, 'ms')} per commit" if lfs.avg_ms is not None else ""
    return make_finding(ctx, "R17", seconds, "medium" if not ash else "low", ev,
                        "Read LGWR's write latency for this window (an AWR report of it: Background Wait Events "
                        "'log file parallel write'; OS iostat on the redo devices). Slow writes (>= 5 ms): put the "
                        "online redo logs on low-latency storage (R01). Fast writes: the wait is CPU, scheduling or "
                        "posting (R02) or the commit rate (R03): check the host's run queue and commits per second.",
                        title=f"Commit waits: log file sync {fmt_num(pct, '%')} {base}{per}; LGWR write time not in the report",
                        confirm="log file parallel write average in an AWR report of the same window; iostat on the redo devices.",
                        refute="LGWR writes fast and few commits per second.",
                        caveats=caveats)


def _ash_redo_writing(ctx: Context) -> Evidence | None:
    """How much of an ASH window the redo writers spent writing: the average active sessions of Top Background
    Events' 'log file parallel write' (LGWR, and its LGnn workers from 12c, sampled like any session)."""
    for row in ctx.report.sections.get("ash_top_bg_events") or ():
        if (row.name or "").lower() == "log file parallel write" and row.values.get("aas") is not None:
            src = Source("ash_top_bg_events", row.name, "aas", row.line, row.values["aas"])
            return Evidence("ash_aas[log file parallel write]", row.values["aas"], "sessions", None, (src,),
                            f"{row.values.get('pct_db_time') or 0:g} % of the sampled activity")
    return None
