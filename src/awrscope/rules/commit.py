"""Commit-path rules: R01 (LGWR I/O), R02 (non-I/O commit latency), R03 (chatty
commits), R14 (Data Guard SYNC), R15 (adaptive log file sync polling).
They share the single attribution of log file sync time made by commit_path.py."""
from __future__ import annotations

from ..whatif import w1_faster_redo, w2_commit_batching, w5_lgwr_cpu
from ..metrics.values import Source
from .base import Context, Evidence, Needs, cap, make_finding, pct_text, rule
from .commit_path import LFS, CommitAttribution
from ..numfmt import fmt_num


def _ca(ctx: Context) -> CommitAttribution:
    ctx.need_events()
    ca = ctx.commit
    if ca is None:
        raise Needs("log file sync waits (foreground wait events)")
    if ca.L is None:
        raise Needs("Background Wait Events (log file parallel write) or 'redo write time' + 'redo writes'")
    return ca


PATHOLOGY_MIN_WAITS = 100  # a handful of commits in an interval is not a latency measurement


def pathological(ca: CommitAttribution, th: dict) -> bool:
    """C.0: a per-commit latency that must be reported whatever its share of DB time."""
    if ca.lfs_waits < PATHOLOGY_MIN_WAITS:
        return False
    return ca.lfs_ms >= th["pathology_lfs_ms"] or bool(ca.L and ca.lfs_ms >= 10 * ca.L and ca.lfs_ms >= 5.0)


def _precision_cap(ctx: Context, ca: CommitAttribution, conf: str) -> str:
    """C.0 precision gate: a coarse key input (LGWR latency or log file sync from a Top-N projection) caps at Medium."""
    mv = ctx.m.get(ca.L_id) if ca.L_id else None
    lfs = ctx.m.get("lfs_ms")
    if (mv is not None and mv.low_precision) or (lfs is not None and lfs.low_precision):
        return cap(conf, "medium")
    return conf


def _material(ca: CommitAttribution, th: dict) -> bool:
    return (ca.pct_db_time or 0.0) >= th["lfs_pct_db_time"]


def _lfs_evidence(ctx: Context, ca: CommitAttribution, th: dict) -> list[Evidence]:
    return [ctx.event_ev(LFS, f">= {th['lfs_pct_db_time']} %"), ctx.ev("lfs_ms", f">= {th['pathology_lfs_ms']} ms pathological")]


#: Foreground waits that are LGWR's writes seen by another name: slow redo writes cause them (R01 explains them).
LGWR_DEPENDENT = ("log buffer space", "log file switch completion")


@rule("R01", "redo-write-io-latency", "Redo write I/O latency bound (LGWR I/O)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, lgwr_ms=5.0, lgwr_ms_flash=2.0, poor_ms=10.0, io_fraction=0.5, pathology_lfs_ms=20.0,
      target_ms=0.5, lfpw_tail_pct=10.0, read_ms=10.0)
def r01(ctx: Context, th: dict):
    """Commits wait on LGWR writes that are slow at the storage level.

    What it detects: log file sync is material (or pathological per commit) and the LGWR write
    latency per redo write (log file parallel write time / redo writes, else redo write time) is
    degraded (>= 5 ms; >= 2 ms on declared flash) and explains at least half of the commit wait.
    Why it matters: every commit waits for its redo to be on disk.
    What to do: dedicated low-latency redo storage (flash/NVMe/PMEM or write-cached array, not
    RAID-5/6), isolated from datafile and archive I/O, async I/O enabled, members on equally fast
    devices; reduce redo volume where recoverability allows.
    Impact: what its own what-if W1 saves at target_ms (0.5 ms per write), on the same model: the
    I/O part alpha*L of each commit wait; with L in tier poor (>= 10 ms) and no CPU evidence, the
    non-I/O remainder too, as I/O queueing behind the slow writes (W1 then says so, and the impact
    range's low end is the I/O part alone).
    References: spec R01/C.2; Ault (18.7 ms disk vs 0.104 ms SSD); Closson; Oracle 'log file sync'.
    """
    ca = _ca(ctx)
    m = ctx.m
    limit = th["lgwr_ms_flash"] if ctx.config.get("redo_on_flash") else th["lgwr_ms"]
    lb = m.pct_db_time("log buffer space", "log file switch completion") or 0.0
    e1 = _material(ca, th) or lb >= 2.0
    e2 = ca.L >= limit
    io_fraction = min(1.0, ca.alpha * ca.L / ca.lfs_ms) if ca.lfs_ms else 0.0
    e3 = io_fraction >= th["io_fraction"] or ca.L >= th["poor_ms"]
    dep_s = m.fg_time("log buffer space") + m.fg_time("log file switch completion")
    # LGWR write latency itself in tier poor/severe is pathological for redo (C.0 spirit): report it whenever
    # foreground time waits on LGWR at all, at Low confidence and with its (small) impact.
    poor_tier = ca.L >= th["poor_ms"] and (ca.lfs_time_s > 0 or dep_s > 0)
    if not (e2 and e3 and (e1 or pathological(ca, th) or poor_tier)):
        return None
    corro = []
    tail = m.v("lfpw_tail_share_8ms")
    if tail is not None and tail >= th["lfpw_tail_pct"]:
        corro.append(ctx.ev("lfpw_tail_share_8ms", f">= {th['lfpw_tail_pct']} %"))
    for ev in ("db file sequential read",):
        e = m.fg(ev)
        if e is not None and e.avg_ms is not None and e.avg_ms > th["read_ms"]:
            corro.append(Evidence(f"avg_ms[{ev}]", round(e.avg_ms, 2), "ms", f"> {th['read_ms']} ms (storage also slow)", e.sources))
    if m.fg("log file switch completion"):
        corro.append(ctx.event_ev("log file switch completion", "> 0 (also waits on LGWR)"))
    conf = "high" if (e1 and corro) else "medium" if e1 else "low"
    conf = _precision_cap(ctx, ca, conf)
    # One model for the impact and the what-if (W1): the commit wait is alpha*L + O. Faster redo writes
    # (L -> L') remove alpha*(L - L') per commit; the non-I/O remainder O stays, unless L is in tier poor
    # with no CPU evidence: then O is taken as I/O queueing behind the slow writes (commits arriving
    # during a long write wait for all of it) and shrinks with L too, i.e. alpha = lfs_ms / L. The
    # finding claims what W1 at target_ms saves under that model; W1's range keeps the conservative
    # lower bound (alpha 1, O constant).
    queueing = bool(ca.L >= th["poor_ms"] and not cpu_explains_remainder(ctx, ca) and ca.non_io_part_s)
    a = max(ca.alpha, ca.lfs_ms / ca.L) if queueing else ca.alpha
    Lp = min(th["target_ms"], ca.L)
    frac = 1.0 - Lp / ca.L
    lfs_saved = ctx.claim(LFS, _w1_saved_s(ca, Lp, a))
    dep_saved = 0.0
    for e in LGWR_DEPENDENT:  # sessions waiting on LGWR by another name: faster writes shrink them too
        got = ctx.claim(e, ctx.m.fg_time(e) * frac)
        if got > 0:
            ctx.explain(e)
        dep_saved += got
    seconds = lfs_saved + dep_saved
    caveats = list(ca.notes)
    dbt = m.v("db_time_s")
    range_pct = None
    if queueing:
        io_only = _w1_saved_s(ca, Lp, ca.alpha)
        caveats.append(f"the non-I/O remainder of log file sync ({ca.non_io_part_s:,.0f} s, {fmt_num(ca.O_ms, 'ms')} per commit) is "
                       "taken as probable I/O queueing behind slow LGWR writes (L in tier poor; "
                       + ("no sign of CPU pressure" if not ca.cpu_evidence else
                          f"a wake-up overhead of {fmt_num((m.v('fg_wakeup_overhead_us') or 0.0) / 1000.0, 'ms')} of its "
                          f"{fmt_num(ca.O_ms, 'ms')} a commit" if m.v("fg_wakeup_overhead_us") else
                          "the CPU signals below do not account for it")
                       + (f", the host {pct_text(m.v('host_cpu_busy_pct'))} busy" if m.v("host_cpu_busy_pct") is not None
                          else "") + "), in the "
                       "impact and in W1 alike: faster redo writes shrink it in proportion L'/L. If it is not I/O, "
                       f"faster redo storage saves only {io_only:,.0f} s of log file sync (the impact range's low end): "
                       "Medium confidence for that part")
        if dbt:
            range_pct = (100.0 * (io_only + dep_saved) / dbt, 100.0 * seconds / dbt)
    if ca.cpu_evidence:
        caveats.append("contra-evidence: CPU pressure (" + "; ".join(ca.cpu_evidence) + ") - see R02")
    ev = _lfs_evidence(ctx, ca, th) + [
        Evidence(ca.L_id or "lgwr", round(ca.L, 3), "ms", f">= {limit} ms", m.get(ca.L_id).sources if ca.L_id in m else ()),
        Evidence("io_fraction", round(io_fraction, 3), "ratio", f">= {th['io_fraction']} or L >= {th['poor_ms']} ms",
                 note=f"alpha*L/lfs_ms, alpha = {ca.alpha}"),
        ctx.ev("redo_write_ms"), ctx.ev("lfpw_write_ratio"),
        Evidence("lgwr_dependent_s", round(dep_s, 3), "s", None, note="log buffer space + log file switch completion (FG)"),
    ] + corro
    if not e1:
        caveats.append("log file sync is not material in this interval: the finding rests on the LGWR write latency itself "
                       "(tier poor) and the foreground time that waits on LGWR")
    wi = [w1_faster_redo(x, ca.L, ca.lfs_ms, ca.lfs_waits, ca.lfs_time_s, dbt, a,
                         writes_per_s=m.v("redo_write_iops"), lgwr_dependent_s=dep_s) for x in sorted({0.1, th["target_ms"]})]
    if queueing:
        for w in wi:
            w["assumptions"][:2] = [
                f"the non-I/O part of log file sync ({fmt_num(ca.O_ms, 'ms')} per commit at alpha {fmt_num(ca.alpha)}) is I/O queueing "
                f"behind slow LGWR writes, as the finding takes it: alpha = lfs_ms / L = {fmt_num(a)}, all of the commit wait "
                "scales with the write latency (the upper bound)",
                "lower bound: alpha 1.0 with the non-I/O part held constant (none of it is I/O)"]
    title = f"Redo write I/O latency bound: {fmt_num(ca.L, 'ms')} per LGWR write, log file sync {fmt_num(ca.lfs_ms, 'ms')}"
    return make_finding(ctx, "R01", seconds, conf, ev,
                        "Put the online redo logs on dedicated low-latency storage (flash/NVMe/PMEM or a write-cached "
                        "array, not RAID-5/6), isolated from datafile and archive-read I/O; make sure async I/O is on "
                        "(disk_asynch_io, filesystemio_options); keep all members on equally fast devices (R13); "
                        "reduce redo volume where recoverability allows (NOLOGGING direct-path loads, needless indexes).",
                        title=title,
                        confirm="OS iostat on the redo devices (await ~ LFPW), LGWR trace 'Warning: log write elapsed time', "
                                "LFPW histogram tail.",
                        refute="A run queue or LGWR off-CPU time (then R02), or redo devices fast in iostat while LFPW is slow "
                               "(LGWR scheduling).",
                        whatif=wi, caveats=caveats, range_pct=range_pct)


def _w1_saved_s(ca: CommitAttribution, Lp: float, a: float) -> float:
    """Log file sync seconds that L -> Lp saves at queueing factor ``a``: W1's model at one alpha
    (whatif.w1_faster_redo: LFS' = min(LFS, a*L' + max(0, LFS - a*L)), never more than log file sync)."""
    lfs_new = min(ca.lfs_ms, a * Lp + max(0.0, ca.lfs_ms - a * ca.L))
    return max(0.0, min(ca.lfs_time_s, ca.lfs_waits * (ca.lfs_ms - lfs_new) / 1000.0))


@rule("R02", "non-io-commit-latency", "LGWR CPU / scheduling / post-wait bound (non-I/O commit latency)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, ratio=3.0, ratio_cpu_saturated=2.0, residual_ms=1.0, lgwr_ms_max=5.0, pathology_lfs_ms=20.0,
      o_normal_ms=0.2)
def r02(ctx: Context, th: dict):
    """Commits wait much longer than LGWR's writes take: the time goes to CPU, scheduling and posting.

    What it detects: log file sync material (or pathological) with lfs_ms >= 3 x LGWR ms per write
    (2 x under CPU saturation), a non-I/O residual >= 1 ms and LGWR writes not slow (< 5 ms).
    High confidence needs a causal signal (host CPU >= 90 %, OS CPU wait, resmgr, FG wakeup
    overhead, polling, LGWR wait for redo copy); without it the finding says 'cause undetermined'.
    Why it matters: faster storage will not help this part of the commit time.
    What to do: remove CPU saturation / run queue, never lower LGWR priority (raise it), reduce
    commit rate, review adaptive log file sync.
    References: spec R02/C.2; Closson; Millsap; Morle via Savvinov (queueing gives 1-2x).
    """
    ca = _ca(ctx)
    m = ctx.m
    ok = r02_e2(ca, th)
    # R02 owns the non-I/O remainder, or takes what polling (R15) cannot explain
    if ca.non_io_owner != "R02" and not (ca.non_io_owner == "R15" and ok):
        return None
    need_ratio = th["ratio_cpu_saturated"] if ca.cpu_evidence else th["ratio"]
    if not ok or not (_material(ca, th) or pathological(ca, th)):
        return None
    conf = _precision_cap(ctx, ca, "high" if ca.cpu_evidence else "medium")
    only_alt = ca.L not in ok
    if ca.L_alt:
        conf = "low"
    lo, hi = ca.non_io_range_s if ca.non_io_range_s else (ca.non_io_part_s, ca.non_io_part_s)
    normal_s = ca.lfs_waits * th["o_normal_ms"] / 1000.0
    # conservative impact: the smaller addressable value when the LGWR timing sources disagree
    # only the non-I/O remainder is R02's, less what R14/R15 already explained of it
    taken = sum(ctx.ledger.leaf(LFS).claims.get(k, 0.0) for k in ("R14", "R15")) if ctx.ledger and ctx.ledger.leaf(LFS) else 0.0
    seconds = ctx.claim(LFS, max(0.0, min(lo - normal_s, (ca.non_io_part_s or 0.0) - taken)))
    dbt = m.v("db_time_s")
    rng = (100.0 * lo / dbt, 100.0 * hi / dbt) if dbt and ca.non_io_range_s else None
    addr_rng = (100.0 * seconds / dbt, 100.0 * max(0.0, hi - normal_s) / dbt) if rng else None
    L_show = ok[0]
    O = max(0.0, ca.lfs_ms - ca.alpha * L_show)
    cause = "CPU / scheduling / post-wait" if ca.cpu_evidence else "cause undetermined"
    title = f"Non-I/O commit latency ({cause}): log file sync {fmt_num(ca.lfs_ms, 'ms')} vs LGWR {fmt_num(L_show, 'ms')} per write"
    if rng:
        title += f"; non-I/O share {rng[0]:.1f}-{rng[1]:.1f} % of DB time"
    ev = _lfs_evidence(ctx, ca, th) + [
        Evidence("lfs_lfpw_ratio", round(ca.lfs_ms / L_show, 3), "ratio", f">= {need_ratio}"),
        Evidence("non_io_residual_ms", round(O, 3), "ms", f">= {th['residual_ms']} ms", note=f"alpha = {ca.alpha}"),
        ctx.ev("lfpw_ms_per_write"), ctx.ev("redo_write_ms"), ctx.ev("host_cpu_busy_pct", ">= 90 %"),
    ] + [Evidence("cpu_evidence", None, "", None, note=c) for c in ca.cpu_evidence]
    caveats = list(ca.notes)
    if only_alt:
        caveats.append(f"holds only with {ca.L_alt_id}; with {ca.L_id} the commit wait is mostly I/O plus queueing")
    if not ca.cpu_evidence:
        caveats.append("no CPU/scheduling signal in the report: candidates are LGWR CPU/scheduling, post/wait cost, "
                       "adaptive polling, log parallelism/strands, Data Guard SYNC, RAC broadcast-on-commit")
    return make_finding(ctx, "R02", seconds, conf, ev,
                        "Remove CPU saturation and run queue (fewer active sessions via pool sizing, fix CPU-heavy SQL, "
                        "Resource Manager plans that throttle foregrounds); never lower LGWR priority - raise it (OS "
                        "scheduling class; _high_priority_processes only with Oracle Support); reduce the commit rate "
                        "(R03); review adaptive log file sync switching (R15).",
                        title=title,
                        confirm="vmstat/sar run queue, LGWR on-CPU vs off-CPU time, 12c+ 'redo synch time overhead (usec)'.",
                        refute="iostat await on the redo devices close to log file sync time (then it is I/O: R01).",
                        whatif=[w5_lgwr_cpu(ca.lfs_waits, O, dbt, th["o_normal_ms"])], caveats=caveats, range_pct=addr_rng)


@rule("R03", "chatty-commits", "Commit too frequent (chatty commits)", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, normal_lfs_ms=5.0, normal_ratio=2.0, waits_per_commit_lo=0.7, waits_per_commit_hi=1.3,
      exec_per_commit=5.0, redo_per_commit_B=2048.0, commit_rate=100.0, batch_factor=5.0, pathology_lfs_ms=20.0)
def r03(ctx: Context, th: dict):
    """Many small commits, each with a normal latency, add up to a material share of DB time.

    What it detects: log file sync >= 5 % of DB time with normal per-commit latency (<= 5 ms or
    <= 2 x LGWR) and about one log file sync per commit plus one of: <= 5 executions per commit,
    <= 2 KB redo per commit, >= 100 commits/s.
    Why it matters: storage cannot make a commit free; fewer commits can.
    What to do: commit per business transaction / N rows, array DML; COMMIT WRITE BATCH NOWAIT
    (or COMMIT_LOGGING/COMMIT_WAIT) only where losing the last transactions is acceptable.
    References: spec R03; Oracle Performance Tuning Guide (log file sync).
    """
    ctx.need_events()
    ca = ctx.commit
    if ca is None:
        raise Needs("log file sync waits (foreground wait events)")
    ctx.need("commit_rate", "lfs_waits_per_commit")
    m = ctx.m
    if not _material(ca, th):
        return None
    normal = ca.lfs_ms <= th["normal_lfs_ms"] or (ca.L is not None and ca.lfs_ms / ca.L <= th["normal_ratio"])
    wpc = m.v("lfs_waits_per_commit")
    if not normal or wpc is None or not (th["waits_per_commit_lo"] <= wpc <= th["waits_per_commit_hi"]):
        return None
    chat = []
    for k, op, t in (("exec_per_commit", "<=", th["exec_per_commit"]), ("redo_per_commit_B", "<=", th["redo_per_commit_B"]),
                     ("commit_rate", ">=", th["commit_rate"])):
        v = m.v(k)
        if v is not None and (v <= t if op == "<=" else v >= t):
            chat.append(ctx.ev(k, f"{op} {t:g}"))
    if not chat:
        return None
    corro = [ctx.ev("redo_write_size_B", "<= 8192 B")] if (m.v("redo_write_size_B") or 1e12) <= 8192 else []
    cpw = m.v("commits_per_redo_write")
    if cpw is not None and cpw <= 1.5:
        corro.append(ctx.ev("commits_per_redo_write", "~1 (little group commit)"))
    conf = "high" if corro else "medium"
    B = th["batch_factor"]
    seconds = ca.lfs_time_s * (1.0 - 1.0 / B)
    # No double counting (C.0): R01 may claim the I/O part (L >= 5 ms), R02/R14/R15 the non-I/O remainder.
    if ca.L is not None:
        io_free = ca.L < 5.0
        if ca.non_io_owner == "R03":
            seconds = seconds if io_free else min(seconds, ca.non_io_part_s or 0.0)
        else:
            seconds = min(seconds, ca.io_part_s or 0.0) if io_free else 0.0
    seconds = ctx.claim(LFS, seconds)
    ev = _lfs_evidence(ctx, ca, th) + [ctx.ev("lfs_waits_per_commit", f"in [{th['waits_per_commit_lo']}, {th['waits_per_commit_hi']}]")] + chat + corro
    return make_finding(ctx, "R03", seconds, conf, ev,
                        "Commit once per business transaction or every N rows, use array DML; where durability semantics "
                        "allow, COMMIT WRITE BATCH NOWAIT / COMMIT_LOGGING=BATCH, COMMIT_WAIT=NOWAIT (the last "
                        "transactions can be lost in a crash); avoid NOCACHE sequences and other recursive commits.",
                        title=f"Chatty commits: {m.v('commit_rate') or 0:,.0f} commits/s at {fmt_num(ca.lfs_ms, 'ms')} each",
                        confirm="SQL ordered by Executions: many single-row DML per commit; application commit points.",
                        refute="Few executions per commit with large redo per commit.",
                        whatif=[w2_commit_batching(B, ca.lfs_waits, ca.lfs_time_s, m.v("db_time_s"), ca.lfs_ms)],
                        caveats=list(ca.notes))


@rule("R14", "dataguard-sync-commit", "Data Guard SYNC transport in the commit path", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, pathology_lfs_ms=20.0, residual_fraction=0.5)
def r14(ctx: Context, th: dict):
    """Commits wait for the standby: SYNC redo transport adds the network round trip and standby I/O.

    What it detects: background remote-sync events (SYNC Remote Write; LNS wait on SENDREQ,
    LGWR-LNS wait on channel) whose latency is comparable to the non-I/O part of log file sync.
    What to do: network RTT and standby redo log I/O, FASTSYNC/NOAFFIRM, or ASYNC per protection mode.
    References: spec R14 (event names partly unverified).
    """
    ca = _ca(ctx)
    if ctx.m.v("remote_sync_ms") is None:
        raise Needs("remote_sync_ms (SYNC Remote Write / LNS wait events)")
    if ca.non_io_owner != "R14":
        return None
    ctx.claim(LFS, ca.non_io_part_s or 0.0)
    return make_finding(ctx, "R14", ca.non_io_part_s or 0.0, "medium",
                        _lfs_evidence(ctx, ca, th) + [ctx.ev("remote_sync_ms"), ctx.ev("non_io_residual_ms")],
                        "Check network round trip and standby redo log I/O; consider FASTSYNC/NOAFFIRM or ASYNC "
                        "transport if the protection mode allows.",
                        confirm="v$dataguard stats / standby redo log write latency.",
                        refute="No SYNC destination in log_archive_dest_n.", caveats=list(ca.notes))


@rule("R15", "adaptive-lfs-polling", "Adaptive log file sync (polling) inflating commits", culprits=("sql:commits",),
      lfs_pct_db_time=5.0, pathology_lfs_ms=20.0, poll_share=50.0, ratio=3.0, min_poll_ms=1.0)
def r15(ctx: Context, th: dict):
    """Foregrounds poll for LGWR instead of being posted, adding up to a poll interval per commit.

    What it detects: 11.2+ 'redo synch poll writes' >= 50 % of 'redo synch writes' with
    log file sync >= 3 x LGWR write time.
    Condition of the claim: a polled commit overshoots the end of its write by at most one poll
    interval, and the interval follows LGWR's expected write time. So polling can add at most
    max(L, min_poll_ms) per polled commit: the finding claims that much of the non-I/O remainder
    (waits x poll share x bound), never the whole of a commit that averages seconds while LGWR
    writes take milliseconds. The rest goes to R02 when its conditions hold, or stays unexplained.
    What to do: confirm in the LGWR trace ('Log file sync switching to polling'); discuss
    _use_adaptive_log_file_sync=FALSE with Oracle Support.
    References: spec R15; Pythian / dbaclass on adaptive log file sync.
    """
    ca = _ca(ctx)
    ctx.need("poll_share")
    if ca.non_io_owner != "R15":
        return None
    poll = ctx.m.v("poll_share") or 0.0
    bound_ms = max(ca.L, th["min_poll_ms"])
    most = ca.lfs_waits * poll / 100.0 * bound_ms / 1000.0
    seconds = ctx.claim(LFS, min(ca.non_io_part_s or 0.0, most))
    caveats = list(ca.notes)
    rest = (ca.non_io_part_s or 0.0) - seconds
    if rest > 0.5:
        caveats.append(f"polling adds at most one poll interval (~{fmt_num(bound_ms, 'ms')}, LGWR's write time) per polled commit: "
                       f"{seconds:,.1f} s of the non-I/O remainder; the other {rest:,.1f} s "
                       f"({ca.O_ms:.1f} ms per commit in all) need another cause (CPU / scheduling: R02)")
    return make_finding(ctx, "R15", seconds, "medium",
                        _lfs_evidence(ctx, ca, th) + [ctx.ev("poll_share", f">= {th['poll_share']} %"),
                                                       ctx.ev("lfs_lfpw_ratio", f">= {th['ratio']}"),
                                                       Evidence("poll_bound_ms", round(bound_ms, 3), "ms", None,
                                                                note="the most polling can add per polled commit: max(L, min_poll_ms)")],
                        "Confirm polling in the LGWR trace; if switching hurts latency, discuss "
                        "_use_adaptive_log_file_sync=FALSE with Oracle Support.",
                        title=f"Adaptive log file sync polling: {poll:.0f} % of commits polled, up to {fmt_num(bound_ms, 'ms')} each",
                        confirm="LGWR trace 'Log file sync switching to polling'.", refute="poll_share low in other intervals.",
                        caveats=caveats)


def cpu_explains_remainder(ctx: Context, ca: CommitAttribution) -> bool:
    """Whether the CPU evidence can account for the non-I/O remainder of the commit wait (spec C.2's special case
    needs it absent before the remainder is taken as I/O queueing). A saturated host, a run queue, Resource Manager
    or polling can stretch any wait; a measured wakeup overhead explains only its own milliseconds: 1.9 ms of
    overhead does not explain 1,504 ms per commit."""
    overhead_ms = (ctx.m.v("fg_wakeup_overhead_us") or 0.0) / 1000.0
    general = [c for c in ca.cpu_evidence if not c.startswith(("FG wakeup overhead", "redo synch overhead", "LGWR wait for redo copy"))]
    return bool(general) or (bool(ca.cpu_evidence) and overhead_ms >= 0.5 * (ca.O_ms or 0.0))


def r02_e2(ca: CommitAttribution, th: dict) -> list[float]:
    """R02 E2 for each available LGWR latency: ratio >= 3 (2 under CPU saturation), residual >= 1 ms, LGWR < 5 ms."""
    Ls = [ca.L] + ([ca.L_alt] if ca.L_alt else [])
    need = th["ratio_cpu_saturated"] if ca.cpu_evidence else th["ratio"]
    return [L for L in Ls if L and ca.lfs_ms / L >= need and ca.lfs_ms - ca.alpha * L >= th["residual_ms"]
            and L < th["lgwr_ms_max"]]


def assign_non_io(ctx: Context, ca: CommitAttribution, th: dict) -> None:
    """C.2: the non-I/O remainder goes to R14 > R15 > R02 > R03 > undetermined."""
    m = ctx.m
    if ca.L is None:
        return
    rs = m.v("remote_sync_ms")
    O = ca.O_ms or 0.0
    if rs is not None and O > 0 and rs >= 0.5 * O:
        ca.non_io_owner = "R14"
    elif (m.v("poll_share") or 0.0) >= 50.0 and ca.lfs_ms / ca.L >= 3.0:
        ca.non_io_owner = "R15"
    elif r02_e2(ca, th):
        ca.non_io_owner = "R02"
    elif ca.lfs_ms <= 5.0 or ca.lfs_ms / ca.L <= 2.0:
        ca.non_io_owner = "R03"
    else:
        ca.non_io_owner = "undetermined"


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
                        title=f"Commit waits: log file sync {pct:.1f} % {base}{per}; LGWR write time not in the report",
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
