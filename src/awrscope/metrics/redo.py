"""Redo and the commit path: redo rates and sizes, LGWR write latency, log file sync,
foreground wake-up overhead, log switches and checkpoints (spec M13-M60)."""
from __future__ import annotations

from .builder import Builder, row_source
from .values import Metrics, MetricValue, Source, rounding_error



#: A report longer than this averages its peaks away: its redo rate sizes no log (the 20-minute rule is about the
#: busiest hour; a 6-day report's 698 B/s gave a 1.2 MB log)
PEAK_WINDOW_S = 4 * 3600

def _commits_from_load_profile(b: Builder) -> tuple[float | None, Source | None]:
    """No Instance Activity Statistics (a report cut before them): the Load Profile's Transactions per Second, less
    its Rollbacks per Second (11g+) or its 'Rollback per transaction %' (before), give the transaction and commit
    rates. Returns the window's commits they imply (rate x elapsed) and their source, for the ratios per commit."""
    sec, e = b.r.sections.get("load_profile"), b.m.v("elapsed_s")
    tx = sec.row("Transactions") if sec is not None else None
    t = tx.values.get("per_second") if tx is not None else None
    if t is None or not e:
        return None, None
    src = Source("load_profile", tx.name, "per_second", tx.line, t)
    note = "no 'user commits' in Instance Activity Statistics: from the Load Profile's rounded rates"
    b.put("txn_rate", t, [src], formula="Load Profile 'Transactions' per Second", note=note)
    rb, pct = sec.row("Rollbacks"), sec.row("Rollback per transaction %")
    if rb is not None and rb.values.get("per_second") is not None:
        c, more = t - rb.values["per_second"], Source("load_profile", rb.name, "per_second", rb.line, rb.values["per_second"])
        formula = "Load Profile 'Transactions' - 'Rollbacks' per Second"
        if t > 0:
            b.put("rollback_ratio", 100.0 * rb.values["per_second"] / t, [src, more], note=note,
                  formula="100 x Load Profile 'Rollbacks' / 'Transactions' per Second")
    elif pct is not None and pct.values.get("value") is not None:
        c, more = t * (1.0 - pct.values["value"] / 100.0), Source("load_profile", pct.name, "value", pct.line, pct.values["value"])
        formula = "Load Profile 'Transactions' per Second x (1 - 'Rollback per transaction %'/100)"
        b.put("rollback_ratio", pct.values["value"], [more], note=note, formula="Load Profile 'Rollback per transaction %'")
    else:
        return None, None
    c = max(0.0, c)
    # the rate is printed to a tenth or a hundredth: its rounding against the rate of commits it leaves
    b.put("commit_rate", c, [src, more], formula=formula, note=note, low=c <= 0 or rounding_error(t) * t > 0.2 * c)
    return c * e, src


def redo(b: Builder) -> None:
    m = b.m
    e = m.v("elapsed_s")
    (redo, commits, rollbacks, writes, wastage, blocks, syncw, execs), srcs, why = b.stats(
        "redo size", "user commits", "user rollbacks", "redo writes", "redo wastage", "redo blocks written",
        "redo synch writes", "execute count")
    s_redo, s_com, s_rb, s_wr, s_wa, s_bl, s_sy, s_ex = srcs
    if rollbacks is None and commits is not None:
        # AWR omits zero-valued statistics (P14): no 'user rollbacks' row next to 'user commits' means none.
        rollbacks = 0.0
    b.rate("redo_rate_Bps", "redo size", b.r.header.elapsed_min)
    b.rate("commit_rate", "user commits", b.r.header.elapsed_min)
    txn = commits + rollbacks if commits is not None and rollbacks is not None else None
    b.ratio("txn_rate", txn, e, [s_com, s_rb])
    via = None
    if commits is None and m.v("commit_rate") is None:
        commits, s_com = _commits_from_load_profile(b)
        via = "'user commits' not printed: the Load Profile's commit rate x elapsed" if commits is not None else None
    b.ratio("redo_per_commit_B", redo, commits, [s_redo, s_com], note=via)
    b.ratio("redo_per_txn_B", redo, txn, [s_redo, s_com, s_rb])
    b.ratio("sync_per_commit", syncw, commits, [s_sy, s_com], note=via)
    b.ratio("commits_per_redo_write", commits, writes, [s_com, s_wr], note=via)
    lfs = m.fg("log file sync")
    b.ratio("lfs_waits_per_commit", lfs.waits if lfs else None, commits, [*(lfs.sources if lfs else ()), s_com], note=via)
    b.ratio("exec_per_commit", execs, commits, [s_ex, s_com], note=via)
    if via is None:  # else the Load Profile gave it
        b.ratio("rollback_ratio", rollbacks, txn, [s_rb, s_com], scale=100.0)
    applied, s_ap, _ = b.stat("rollback changes - undo records applied")
    b.ratio("undo_records_per_rollback", applied, rollbacks, [s_ap, s_rb])

    # M30 redo write time: (usec) twin preferred, else centiseconds (P02)
    us, s_us, _ = b.stat("redo write time (usec)")
    cs, s_cs, why_cs = b.stat("redo write time")
    if us is not None:
        b.ratio("redo_write_ms", us / 1000.0, writes, [s_us, s_wr])
    elif cs is not None:
        low = 0 < cs < 3  # +-0.5 cs resolution: relative error > 20 % (P05)
        b.ratio("redo_write_ms", 10.0 * cs, writes, [s_cs, s_wr], low=low,
                note="'redo write time' is in centiseconds: ms/write = 10*cs/writes")
    else:
        b.miss("redo_write_ms", why_cs or "MISSING_INPUT")
    lfpw = m.bg("log file parallel write")
    if lfpw is not None:
        b.ratio("lfpw_ms_per_wait", 1000.0 * lfpw.time_s, lfpw.waits, lfpw.sources)
        # P05: LFPW total printed in whole seconds; below 2.5 s the +-0.5 s resolution exceeds 20 %
        coarse = lfpw.time_s < 2.5
        b.ratio("lfpw_ms_per_write", 1000.0 * lfpw.time_s, writes, [*lfpw.sources, s_wr], low=coarse,
                note="LFPW total time too coarse (< 2.5 s printed in whole seconds)" if coarse else None)
        ratio = b.ratio("lfpw_write_ratio", lfpw.waits, writes, [*lfpw.sources, s_wr])
        if ratio is not None and not (0.8 <= ratio <= 1.25):
            mv = m.values["lfpw_write_ratio"]
            m.values["lfpw_write_ratio"] = MetricValue(mv.id, mv.value, mv.unit, mv.formula, mv.sources, None,
                                                       "outside [0.8, 1.25]: per-wait LFPW latency misstates per-write latency (P06)")
    else:
        why_bg = "MISSING_INPUT"
        for k in ("lfpw_ms_per_wait", "lfpw_ms_per_write", "lfpw_write_ratio"):
            b.miss(k, why_bg, note="needs Background Wait Events (log file parallel write)")
    phys = redo + wastage if redo is not None and wastage is not None else None
    b.ratio("redo_write_size_B", phys, writes, [s_redo, s_wa, s_wr])
    if phys is not None and blocks:
        raw = 16.0 + phys / blocks
        snapped = min((512, 1024, 4096), key=lambda x: abs(x - raw))
        low = any(s and s.value is not None and s.value >= 1e9 and float(s.value) % 1e6 == 0 for s in (s_redo, s_wa, s_bl))
        b.put("redo_block_size_est", float(snapped), [s_redo, s_wa, s_bl], low=low,
              note=f"raw estimate {raw:.1f} B (Ixora: 16-byte header + bytes/block), snapped to 512/1024/4096")
    else:
        b.ratio("redo_block_size_est", phys, blocks, [s_redo, s_wa, s_bl])
    b.ratio("redo_wastage_pct", wastage, phys, [s_wa, s_redo], scale=100.0)
    b.ratio("wastage_per_write_B", wastage, writes, [s_wa, s_wr])
    b.ratio("redo_write_iops", writes, e, [s_wr])
    b.ratio("redo_write_MBps", phys / 2**20 if phys is not None else None, e, [s_redo, s_wa])
    _redo_phys_reqs(b)
    b.ratio("members_est", m.v("redo_phys_write_reqs"), m.v("redo_write_iops"), [], low=True,
            note="> members when large writes are split; Low confidence")
    fgck, s_fgck, _ = b.stat("redo blocks checksummed by FG (exclusive)")
    b.ratio("fg_checksum_blocks_per_write", fgck, writes, [s_fgck, s_wr])
    wd, s_wd, _ = b.stat("redo write worker delay (usec)")
    wdc, s_wdc, _ = b.stat("redo write worker delay count")
    b.ratio("worker_delay_us", wd, wdc, [s_wd, s_wdc])

def _redo_phys_reqs(b: Builder) -> None:
    iop = b.r.sections.get("io_profile")
    row = iop.row("Redo requests") if iop else None
    if row is not None and row.values.get("write_per_s") is not None:
        b.put("redo_phys_write_reqs", row.values["write_per_s"], [row_source("io_profile", row, "write_per_s")])
        return
    ios = b.r.sections.get("iostat_function")
    row = ios.row("LGWR") if ios else None
    if row is not None and row.values.get("write_reqs_per_s") is not None:
        b.put("redo_phys_write_reqs", row.values["write_reqs_per_s"], [row_source("iostat_function", row, "write_reqs_per_s")])
        return
    b.miss("redo_phys_write_reqs")

def commit(b: Builder) -> None:
    m = b.m
    lfs = m.fg("log file sync")
    if lfs is not None and lfs.avg_ms is not None:
        b.put("lfs_ms", lfs.avg_ms, lfs.sources, low=lfs.basis == "top",
              note="from the Top-N projection (system-wide)" if lfs.basis == "top" else None)
    else:
        b.miss("lfs_ms", note="needs log file sync waits and time")
    (syncw, sync_us, sync_cs, ovh_us, pollw, polls), srcs, _ = b.stats(
        "redo synch writes", "redo synch time (usec)", "redo synch time", "redo synch time overhead (usec)",
        "redo synch poll writes", "redo synch polls")
    s_sw, s_us, s_cs, s_ov, s_pw, s_pl = srcs
    if sync_us is not None:
        b.ratio("synch_ms", sync_us / 1000.0, syncw, [s_us, s_sw])
    elif sync_cs is not None:
        b.ratio("synch_ms", 10.0 * sync_cs, syncw, [s_cs, s_sw], note="'redo synch time' is in centiseconds")
    else:
        b.miss("synch_ms")
    b.put("alpha", m.alpha, [], note="queueing factor (spec M54): LFS ~ alpha x LFPW when purely I/O-bound")
    L, L_id = lgwr_latency(m)
    lfs_ms = m.v("lfs_ms")
    if lfs_ms is not None and L:
        b.put("lfs_lfpw_ratio", lfs_ms / L, [], note=f"L = {L_id}")
        b.put("non_io_residual_ms", max(0.0, lfs_ms - m.alpha * L), [], note=f"L = {L_id}, alpha = {m.alpha}")
    else:
        b.miss("lfs_lfpw_ratio", "DIV_ZERO" if L == 0 else "MISSING_INPUT")
        b.miss("non_io_residual_ms", "MISSING_INPUT")
    if ovh_us is not None and sync_us is not None and ovh_us > 1.05 * sync_us + 1:
        # the overhead is part of redo synch time; printed larger than it (12 of the corpus reports,
        # up to 30,000x), the counter is not usable: no wake-up overhead rather than a wrong one
        note = (f"'redo synch time overhead (usec)' {ovh_us:,.0f} exceeds 'redo synch time (usec)' {sync_us:,.0f}, "
                "of which it is a part: not used")
        b.miss("fg_wakeup_overhead_us", "INCONSISTENT", note=note, sources=[s_ov, s_us])
        b.miss("overhead_share", "INCONSISTENT", note=note, sources=[s_ov, s_us])
    else:
        b.ratio("fg_wakeup_overhead_us", ovh_us, syncw, [s_ov, s_sw])
        b.ratio("overhead_share", ovh_us, sync_us, [s_ov, s_us], scale=100.0)
    _overhead_buckets(b)
    b.ratio("poll_share", pollw, syncw, [s_pw, s_sw], scale=100.0)
    for name in ("SYNC Remote Write", "LNS wait on SENDREQ", "LGWR-LNS wait on channel"):
        ev = m.bg(name) or m.fg(name)
        if ev is not None and ev.avg_ms is not None:
            b.put("remote_sync_ms", ev.avg_ms, ev.sources, note=name)
            break
    else:
        b.miss("remote_sync_ms")

def lgwr_latency(m: Metrics) -> tuple[float | None, str | None]:
    """L of the C.2 flow: lfpw_ms_per_write -> redo_write_ms -> lfpw_ms_per_wait."""
    fallback = (None, None)
    for k in ("lfpw_ms_per_write", "redo_write_ms", "lfpw_ms_per_wait"):
        mv = m.get(k)
        if mv is None or mv.value is None or mv.value <= 0:  # 0 = below the printed resolution
            continue
        if mv.low_precision:  # precision gate (C.0): prefer a precise alternative
            fallback = fallback if fallback[0] is not None else (mv.value, k)
            continue
        return mv.value, k
    return fallback

def switches(b: Builder) -> None:
    m = b.m
    e = m.v("elapsed_s")
    sec = b.r.sections.get("thread_activity")
    row = sec.row("log switches (derived)") if sec else None
    total = None
    if row is not None and row.values.get("per_hour") is not None:
        total = row.values.get("total")
        b.put("log_switches_per_hour", row.values["per_hour"], [row_source("thread_activity", row, "per_hour")])
    elif row is not None and row.values.get("total") is not None and e:
        total = row.values["total"]
        b.put("log_switches_per_hour", total * 3600.0 / e, [row_source("thread_activity", row, "total")])
    else:
        b.miss("log_switches_per_hour", note="needs Instance Activity Stats - Thread Activity")
    sph = m.v("log_switches_per_hour")
    b.ratio("minutes_between_switches", 60.0, sph, [])
    (redo, wastage), (s1, s2), _ = b.stats("redo size", "redo wastage")
    if total and total >= 2 and redo is not None:
        b.put("est_log_size_B", (redo + (wastage or 0.0)) / total, [s1, s2, row_source("thread_activity", row, "total")],
              note="average redo per switch; approximates the online log size")
    else:
        b.miss("est_log_size_B")
    rate, e, est = m.v("redo_rate_Bps"), m.v("elapsed_s"), m.v("est_log_size_B")
    wanted = rate * 60 * 20 * 1.5 if rate is not None else None
    if wanted is not None and est and wanted < est:
        b.miss("recommended_log_size_B", "NOT_A_PEAK", note=f"the logs (about {est / 2**20:,.0f} MiB) already hold 20 "
               "minutes of this report's average redo x1.5: the switches come at its peaks; size the logs from a "
               "report of the busiest hour")
    elif wanted is not None and e and e > PEAK_WINDOW_S and not est:
        b.miss("recommended_log_size_B", "NOT_A_PEAK", note=f"the report covers {e / 3600:,.1f} hours: its average redo "
               "rate is no peak rate; size the logs from a report of the busiest hour")
    elif wanted is not None and e and e > PEAK_WINDOW_S:
        b.put("recommended_log_size_B", wanted, [], note=f"at least: 20 minutes at the average rate of these "
              f"{e / 3600:,.1f} hours x1.5, more than the logs hold (about {est / 2**20:,.0f} MiB); the busiest hour "
              "needs more")
    else:
        b.put("recommended_log_size_B", wanted, [],
              note="20 minutes between switches at the average rate of this report x1.5 (single report: no peak known)")
    ck = b.r.sections.get("checkpoint_activity")
    crow = ck.rows[0] if ck and ck.rows else None
    if crow is not None and crow.values.get("log_size_writes") is not None and crow.values.get("total_physical_writes"):
        b.put("log_size_ckpt_share", 100.0 * crow.values["log_size_writes"] / crow.values["total_physical_writes"],
              [row_source("checkpoint_activity", crow, "log_size_writes")])
    else:
        b.miss("log_size_ckpt_share")
    (st, cp), srcs, why = b.stats("background checkpoints started", "background checkpoints completed")
    b.put("ckpt_overrun", st - cp if st is not None and cp is not None else None, srcs)
    (req, wt, ent, retr), srcs, _ = b.stats("redo log space requests", "redo log space wait time", "redo entries",
                                            "redo buffer allocation retries")
    b.ratio("redo_space_wait_ms", 10.0 * wt if wt is not None else None, req, [srcs[1], srcs[0]])
    if req is not None and ent:
        b.put("redo_nowait_pct", 100.0 * (1 - req / ent), [srcs[0], srcs[2]])
    else:
        b.miss("redo_nowait_pct")
    b.ratio("alloc_retry_ratio", retr, ent, [srcs[3], srcs[2]])

# Upper bounds in ms of the 'redo synch time overhead count' buckets, by label: 11.2
# '(<2 msec)'..'(>=128 msec)', 12.2+ '(  2ms)'..'(128ms)', '(inf)' (spec P16).
_OVERHEAD_BUCKETS = {"<2 msec": 2, "<8 msec": 8, "<32 msec": 32, "<128 msec": 128, ">=128 msec": None,
                     "2ms": 2, "8ms": 8, "32ms": 32, "128ms": 128, "inf": None}

_OVERHEAD_PREFIX = "redo synch time overhead count ("

def _overhead_buckets(b: Builder) -> None:
    """M57: how much of the FG wake-up overhead is slow. Text reports cut the five
    statistic names at 32 characters, leaving five identical 'redo synch time overhead
    count (' rows: read by label only when the labels are whole, else keep the sum."""
    sec = b.r.sections.get("instance_activity")
    rows = [r for r in sec.rows if r.name and r.name.lower().startswith(_OVERHEAD_PREFIX)] if sec else []
    if not rows:
        b.miss("overhead_bucket_dist")
        return
    srcs = [Source("instance_activity", r.name, "total", r.line, r.values.get("total")) for r in rows]
    labelled: dict[float | None, float] = {}
    for r in rows:
        label = " ".join(r.name[len(_OVERHEAD_PREFIX):].rstrip(")").split())
        if label not in _OVERHEAD_BUCKETS or r.values.get("total") is None:
            labelled = {}
            break
        labelled[_OVERHEAD_BUCKETS[label]] = r.values["total"]
    total = sum(r.values.get("total") or 0.0 for r in rows)
    if not labelled:
        b.put("overhead_bucket_dist", None, srcs, reason="AMBIGUOUS_NAME",
              note=f"{len(rows)} bucket row(s) with cut names: only their sum is known ({total:,.0f} waits)")
        return
    if total <= 0:
        b.miss("overhead_bucket_dist", "DIV_ZERO", sources=srcs)
        return
    slow = sum(v for bound, v in labelled.items() if bound is None or bound > 8)
    shares = ", ".join(f"{'>=128' if k is None else '<' + str(k)} ms {100.0 * v / total:.1f} %"
                       for k, v in sorted(labelled.items(), key=lambda kv: 1e9 if kv[0] is None else kv[0]))
    b.put("overhead_bucket_dist", 100.0 * slow / total, srcs, note=f"share over 8 ms; buckets: {shares}")
