"""Redo log rules: R04 (undersized logs / checkpoint incomplete), R05 (archiver),
R06 (log buffer space), R07 (redo latches), R12 (4 KB redo blocks), R13 (multiplexed members)."""
from __future__ import annotations

from ..metrics.redo import PEAK_WINDOW_S
from ..whatif import w3_resize_logs
from .base import Context, Evidence, make_finding, rule
from ..numfmt import fmt_num

CKPT = "log file switch (checkpoint incomplete)"
SWC = "log file switch completion"
PSF = "log file switch (private strand flush incomplete)"


@rule("R04", "redo-logs-undersized", "Online redo logs undersized / checkpoint incomplete", culprits=("segments:db_block_changes",),
      ckpt_pct=5.0, ckpt_critical_pct=50.0, switches_per_hour=4.0, switches_per_hour_alone=30.0, log_size_ckpt_pct=50.0,
      target_minutes=20.0, max_log_size_mib=8192.0)
def r04(ctx: Context, th: dict):
    """Sessions wait because the next online log cannot be reused until its checkpoint completes.

    What it detects: 'log file switch (checkpoint incomplete)' in foreground time (> 5 % of DB time
    is the Oracle EM warning; any non-zero value is a configuration smell), corroborated by frequent
    log switches (> 4 per hour), checkpoints started > completed, 'log file switch completion',
    private strand flush waits, or Checkpoint Activity 'Log Size Writes'. Very frequent switches
    (> 30 per hour) alone are reported at Medium confidence.
    Why it matters: while the switch waits, no session can generate redo.
    What to do: resize the logs to ~20 minutes of peak redo (recommended_log_size_B, at most
    max_log_size_mib per log: past it, add groups and check the rate is one instance's), add groups,
    speed up DBWR (R08). Redo wastage is not a log-size criterion.
    References: spec R04; Oracle EM thresholds; Oracle 'log file switch (checkpoint incomplete)'.
    """
    ctx.need_events()
    m = ctx.m
    ck = m.pct_db_time(CKPT) or 0.0
    sph = m.v("log_switches_per_hour")
    corro = []
    if sph is not None and sph > th["switches_per_hour"]:
        corro.append(ctx.ev("log_switches_per_hour", f"> {th['switches_per_hour']:g} per hour"))
    if (m.v("ckpt_overrun") or 0) > 0:
        corro.append(ctx.ev("ckpt_overrun", "> 0"))
    for e in (SWC, PSF):
        if m.fg(e):
            corro.append(ctx.event_ev(e, "> 0"))
    if (m.v("log_size_ckpt_share") or 0) >= th["log_size_ckpt_pct"]:
        corro.append(ctx.ev("log_size_ckpt_share", f">= {th['log_size_ckpt_pct']} %"))
    fg_ck = m.fg(CKPT)
    if fg_ck is None or fg_ck.time_s <= 0:
        if sph is None or sph <= th["switches_per_hour_alone"]:
            return None
        conf = "medium"
    elif ck > th["ckpt_pct"]:
        conf = "high" if corro else "medium"
    else:
        conf = "medium" if corro else "low"
    # half of 'log file switch completion' is a checkpoint's; what slow LGWR writes (R01) explain is not asked for
    seconds = ctx.claim(CKPT, m.fg_time(CKPT)) + ctx.claim(SWC, min(0.5 * m.fg_time(SWC), ctx.free(SWC))) \
        + ctx.claim(PSF, m.fg_time(PSF))
    rate = m.v("redo_rate_Bps")
    sized = m.get("recommended_log_size_B")
    no_peak = sized.note if sized is not None and sized.reason == "NOT_A_PEAK" else None
    wi = []
    wanted = rate * 60 * th["target_minutes"] * 1.5 if rate and not no_peak else None
    cap = th["max_log_size_mib"] * 2**20
    new_size = min(wanted, cap) if wanted else None
    if new_size:
        wi.append(w3_resize_logs(rate * 3600, new_size, sph, m.fg_time(CKPT), m.fg_time(SWC), m.v("db_time_s")))
    ev = [ctx.event_ev(CKPT, f"> {th['ckpt_pct']} % (EM warning), > {th['ckpt_critical_pct']} % critical"),
          ctx.ev("minutes_between_switches", ">= 15-20 min"),
          Evidence("recommended_log_size_B", new_size, "B",
                   f"20 minutes of redo at this report's average rate x1.5, at most {th['max_log_size_mib']:,.0f} MiB",
                   note=(f"uncapped: {wanted / 2**20:,.0f} MiB" if wanted and wanted > cap else no_peak)),
          ctx.ev("est_log_size_B")] + corro
    title = f"Redo logs too small for the redo rate: checkpoint incomplete {ck:.1f} % of DB time" if ck >= 0.1 or not ck else \
        f"Redo logs too small for the redo rate: checkpoint incomplete {fmt_num(ck, '%')} of DB time"
    if sph is not None:
        title += f", {sph:.1f} log switches per hour"
    if wanted and wanted > cap:  # a log of hundreds of GB is not advice: past the cap, groups (and the rate's origin)
        size_note = (f" (about {cap / 2**20:,.0f} MiB per log, the most awrscope advises: 20 minutes at this report's "
                     f"average rate x1.5 would be {wanted / 2**20:,.0f} MiB per log; at {rate / 2**20:,.1f} MiB/s add log "
                     "groups rather than size, and check the rate is one instance's: a RAC global report sums the threads)")
    elif no_peak:
        size_note = f" (no size from this report: {no_peak})"
    elif wanted and (m.v("elapsed_s") or 0) > PEAK_WINDOW_S:
        size_note = (f" (at least about {wanted / 2**20:,.0f} MiB per log: this report's {m.v('elapsed_s') / 3600:,.1f}-hour "
                     "average rate x1.5; the busiest hour needs more)")
    else:
        size_note = (f" (about {wanted / 2**20:,.0f} MiB per log from this report's average rate x1.5)" if wanted else "")
    rec = ("Resize the online redo logs so that they switch about every 15-20 minutes at peak"
           + size_note
           + ", and/or add log groups so DBWR can finish the checkpoint before a log is reused; speed up DBWR (R08); "
             "compare with 'Opt Log Sz(M)' when fast_start_mttr_target is set. Redo wastage per write is not a log-size criterion.")
    return make_finding(ctx, "R04", seconds, conf, ev, rec, title=title,
                        confirm="alert log 'Checkpoint not complete' / 'cannot allocate new log'; v$log sizes and group count.",
                        refute="Logs already switch every 15+ minutes and DBWR is idle (then look at archiving, R05).",
                        whatif=wi)


@rule("R05", "archiver-behind", "Archiver stuck / archiving cannot keep up", culprits=("segments:db_block_changes",), minor_pct=1.0, warning_pct=5.0)
def r05(ctx: Context, th: dict):
    """Log switches wait for the archiver.

    What it detects: foreground 'log file switch (archiving needed)' time (> 0 info, >= 1 % minor,
    >= 5 % warning as in Oracle EM for 'log switch/archive').
    What to do: destination space (FRA), destination throughput, log_archive_max_processes,
    archive destination separate from online redo, more/larger groups.
    References: spec R05; Oracle EM 'log switch/archive'.
    """
    ctx.need_events()
    m = ctx.m
    t = m.fg_time("log file switch (archiving needed)")
    if t <= 0:
        return None
    t = ctx.claim("log file switch (archiving needed)", t)
    ev = [ctx.event_ev("log file switch (archiving needed)", f">= {th['minor_pct']} % minor, >= {th['warning_pct']} % warning")]
    for bg in ("Log archive I/O", "log file sequential read", "ARCH wait on SENDREQ"):
        e = m.bg(bg)
        if e:
            ev.append(Evidence(f"bg_time_s[{bg}]", e.time_s, "s", None, e.sources))
    return make_finding(ctx, "R05", t, "high", ev,
                        "Check archive destination space (FRA full?) and throughput (NFS/ASM), raise "
                        "log_archive_max_processes, keep the archive destination off the online redo devices, add or "
                        "enlarge log groups.",
                        confirm="alert log 'ORA-00257' / 'All online logs needed archiving'.", refute="archiver idle in v$archive_processes.",
                        caveats=["the cause (space vs slow destination) needs the alert log"])


@rule("R06", "log-buffer-space", "Log buffer too small / LGWR cannot drain (log buffer space)", culprits=("segments:db_block_changes",),
      minor_pct=1.0, warning_pct=5.0, critical_pct=20.0, lgwr_ms=5.0)
def r06(ctx: Context, th: dict):
    """Sessions wait for free space in the log buffer.

    What it detects: 'log buffer space' >= 1 % of DB time. If LGWR writes are slow (>= 5 ms) the
    root cause is LGWR I/O (R01), not the buffer size.
    What to do: increase log_buffer moderately; fix LGWR I/O; reduce redo volume (NOLOGGING direct path).
    References: spec R06; Oracle 'log buffer space'.
    """
    ctx.need_events()
    m = ctx.m
    p = m.pct_db_time("log buffer space") or 0.0
    if p < th["minor_pct"]:
        return None
    L = m.v("lfpw_ms_per_write") or m.v("redo_write_ms")
    ev = [ctx.event_ev("log buffer space", f">= {th['minor_pct']} %"), ctx.ev("redo_rate_Bps"), ctx.ev("alloc_retry_ratio")]
    caveats = []
    if L is not None and L >= th["lgwr_ms"]:
        caveats.append(f"LGWR writes take {L:.1f} ms: the root cause is LGWR I/O (R01) - a bigger buffer only delays the wait")
        ev.append(Evidence("lgwr_ms_per_write", round(L, 3), "ms", f">= {th['lgwr_ms']} ms => R01"))
    # R01 (run first) may already have claimed the part that faster LGWR writes remove
    granted = ctx.claim("log buffer space", m.fg_time("log buffer space"))
    if granted < 0.5 * m.fg_time("log buffer space"):
        caveats.append(f"most of the log buffer space time is attributed to R01 (faster LGWR writes); {granted:,.1f} s remain here")
    return make_finding(ctx, "R06", granted,
                        "medium" if caveats else "high", ev,
                        "Increase log_buffer moderately; if LGWR writes are slow fix the redo storage first (R01); "
                        "reduce redo volume (NOLOGGING direct-path loads for bulk work).",
                        confirm="redo buffer allocation retries rising; bursts of redo in ASH.", refute="sustained redo rate above LGWR throughput.",
                        caveats=caveats)


REDO_LATCHES = ("latch: redo allocation", "latch: redo copy", "latch: redo writing")


@rule("R07", "redo-latch-contention", "Redo copy / allocation contention (supporting)", culprits=("segments:db_block_changes",), standalone_pct=2.0)
def r07(ctx: Context, th: dict):
    """Redo allocation/copy/writing latch waits: usually a symptom of foreground CPU starvation.

    What it detects: the redo latch wait events >= 2 % of DB time (stand-alone finding).
    What to do: treat as corroboration of R02 (CPU starvation); reduce redo generation concurrency.
    References: spec R07.
    """
    ctx.need_events()
    m = ctx.m
    p = m.pct_db_time(*REDO_LATCHES) or 0.0
    if p < th["standalone_pct"]:
        return None
    return make_finding(ctx, "R07", ctx.claim_all(REDO_LATCHES), "medium",
                        [ctx.event_ev(e, f"sum >= {th['standalone_pct']} %") for e in REDO_LATCHES if m.fg(e)],
                        "Look for CPU starvation first (R02): sessions holding redo copy latches are de-scheduled; "
                        "reduce concurrent redo generation.", confirm="run queue; Latch Activity misses on redo latches.")


@rule("R12", "redo-block-4k-candidate", "Redo block size 4 KB candidate",
      lfs_pct_db_time=5.0, lgwr_ms_max=2.0, write_size_B=8192.0)
def r12(ctx: Context, th: dict):
    """512-byte redo blocks on flash-class redo storage with commit-bound small writes: 4 KB blocks may help.

    What it detects: release >= 11.2 (when known), redo_block_size_est = 512, log file sync >= 5 %
    of DB time while LGWR writes are already fast (<= 2 ms), small writes (<= 8 KB). Always Low
    confidence: the device sector size and behaviour are not in the report.
    What to do: candidate - benchmark first. Creating 4 KB logs on devices reporting 512-byte
    sectors raises ORA-01378 unless _disk_sector_size_override=TRUE (Oracle Support). Cost:
    more redo wastage (more online/archived redo volume).
    References: spec R12; dbi-services ODA X6 (LFS 2.4 -> 1.3 ms); Pure Storage (no gain).
    """
    ctx.need_events()
    ctx.need("redo_block_size_est")
    m = ctx.m
    v = ctx.report.version
    if v:
        try:
            parts = [int(x) for x in v.split(".")[:2]]
            if parts < [11, 2]:
                return None
        except ValueError:
            pass
    if m.v("redo_block_size_est") != 512:
        return None
    lfs_p = m.pct_db_time("log file sync") or 0.0
    L = m.v("lfpw_ms_per_write") or m.v("redo_write_ms")
    if lfs_p < th["lfs_pct_db_time"] or L is None or L > th["lgwr_ms_max"]:
        return None
    ws = m.v("redo_write_size_B")
    writes = None
    mv = m.get("redo_write_iops")
    if mv and mv.value and m.v("elapsed_s"):
        writes = mv.value * 86400
    cost = f"; extra wastage about {writes * (4096 - 512) / 2 / 2**20:,.0f} MiB/day of redo" if writes else ""
    ev = [ctx.ev("redo_block_size_est", "= 512"), ctx.event_ev("log file sync", f">= {th['lfs_pct_db_time']} %"),
          Evidence("lgwr_ms_per_write", round(L, 3), "ms", f"<= {th['lgwr_ms_max']} ms (flash class)"),
          ctx.ev("redo_write_size_B", f"<= {th['write_size_B']:g} B (small commit-driven writes favour 4 KB)",
                 note=None if ws is None or ws <= th["write_size_B"] else "writes are not small: weaker candidate"),
          ctx.ev("fg_checksum_blocks_per_write")]
    return make_finding(ctx, "R12", 0.0, "low", ev,
                        "Candidate only - benchmark first: on flash with 4 KB physical sectors, 4 KB redo blocks "
                        "(ALTER DATABASE ADD LOGFILE ... BLOCKSIZE 4096) can cut commit latency (dbi-services ODA: "
                        "log file sync 2.4 -> 1.3 ms) but may bring nothing (Pure Storage)" + cost + ".",
                        confirm="device reports 4096-byte physical sectors (4Kn or 512e with read-modify-write); a benchmark.",
                        refute="512-byte native sectors; no gain in a benchmark.",
                        caveats=["creating 4 KB redo logs on a device reporting 512-byte sectors raises ORA-01378 unless "
                                 "_disk_sector_size_override=TRUE (only with Oracle Support)",
                                 "benchmark first: Low confidence - storage facts are not in the report"])


@rule("R13", "multiplexed-redo-slowest-member", "Multiplexed redo: slowest member dominates",
      members=2.0, members_max=4.5, lgwr_ms=5.0, max_unsplit_write_B=131072.0)
def r13(ctx: Context, th: dict):
    """LGWR waits for the slowest member of each log group.

    What it detects (hint only): about >= 2 physical redo write requests per LGWR write
    (members_est) while LGWR writes are slow (>= 5 ms). Per-member latency is not in AWR/Statspack.
    What to do: measure each member's device (iostat), put members on equally fast devices or use
    storage mirroring instead of host multiplexing.
    References: spec R13; Oracle 'log file parallel write'.
    """
    ctx.need("members_est")
    m = ctx.m
    L = m.v("lfpw_ms_per_write") or m.v("redo_write_ms")
    me, ws = m.v("members_est"), m.v("redo_write_size_B")
    if L is None or me < th["members"] or me > th["members_max"] or L < th["lgwr_ms"]:
        return None
    if ws is None or ws > th["max_unsplit_write_B"]:
        return None  # large writes are split into several I/Os: the request ratio says nothing about members
    return make_finding(ctx, "R13", 0.0, "low",
                        [ctx.ev("members_est", f">= {th['members']:g}"), Evidence("lgwr_ms_per_write", round(L, 3), "ms", f">= {th['lgwr_ms']} ms")],
                        "Measure each member's device with OS iostat; put all members on equally fast devices or rely "
                        "on storage mirroring; check the LGWR trace for 'Warning: log write elapsed time'.",
                        confirm="iostat per member device.", refute="all member devices equally fast.",
                        caveats=["investigate: members_est also counts split large writes"])
