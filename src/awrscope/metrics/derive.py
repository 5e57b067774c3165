"""derive(report) -> Metrics: every metric of spec section B that the report's
data allows, each with its inputs' provenance, or None with a reason code.

Pure: reads the typed Report only. Time statistics of V$SYSSTAT are in
centiseconds (spec P02); the (usec) twins are preferred where printed.
"""
from __future__ import annotations

import re

from ..model import Report, Row
from ..parse.names import IDLE_EVENTS, is_idle
from .catalog import BY_ID
from .values import EventTime, Metrics, MetricValue, Source

DEFAULT_ALPHA = 1.5

# Events whose per-event metrics (fg_time_s/pct_db_time/avg_ms[...]) are always published when printed.
WRITE_PATH_EVENTS = (
    "log file sync", "log file switch (checkpoint incomplete)", "log file switch (archiving needed)",
    "log file switch completion", "log file switch (private strand flush incomplete)", "log buffer space",
    "free buffer waits", "write complete waits", "direct path write temp", "direct path read temp",
    "local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint",
    "enq: CR - block range reuse ckpt", "enq: US - contention", "undo segment extension",
    "latch: redo allocation", "latch: redo copy", "latch: redo writing", "resmgr:cpu quantum",
)
REUSE_EVENTS = ("local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint",
                "enq: CR - block range reuse ckpt")
CPU_ROWS = {"cpu time", "db cpu"}
BACKGROUND_ONLY = {"log file parallel write", "db file parallel write", "control file parallel write",
                   "log file sequential read", "log file single write", "lgwr wait for redo copy", "log archive i/o",
                   "arch wait on sendreq", "lns wait on sendreq", "lgwr-lns wait on channel", "sync remote write",
                   "target log write size"}
# RMAN channel waits printed in the system-wide section of AWR 10g/Statspack are not part of DB time
NOT_DB_TIME_PREFIXES = ("rman backup", "backup:")


class _Builder:
    def __init__(self, report: Report, alpha: float):
        self.r = report
        self.m = Metrics(alpha=alpha)

    # -- output ----------------------------------------------------------
    def put(self, id: str, value: float | None, sources=(), note: str | None = None, low: bool = False,
            unit: str | None = None, formula: str | None = None, reason: str | None = None) -> float | None:
        d = BY_ID.get(id.split("[")[0])
        unit = unit or (d.unit if d else "")
        formula = formula or (d.formula if d else "")
        if value is None and reason is None:
            reason = "MISSING_INPUT"
        self.m.values[id] = MetricValue(id, value, unit, formula, tuple(s for s in sources if s), reason if value is None else None,
                                        note, low)
        return value

    def miss(self, id: str, reason: str = "MISSING_INPUT", note: str | None = None, sources=()) -> None:
        self.put(id, None, sources, note=note, reason=reason)

    # -- inputs ----------------------------------------------------------
    def stat(self, name: str) -> tuple[float | None, Source | None, str | None]:
        """(value, source, reason) of an Instance Activity statistic total."""
        sec = self.r.sections.get("instance_activity")
        if sec is None:
            return None, None, "MISSING_INPUT"
        row = sec.row(name)
        if row is None:
            return None, None, "MISSING_INPUT"
        v = row.values.get("total")
        src = Source("instance_activity", row.name, "total", row.line, v)
        return v, src, (None if v is not None else "OVERFLOW")

    def stats(self, *names: str):
        """Values, sources and first reason for several statistics."""
        vals, srcs, reason = [], [], None
        for n in names:
            v, s, why = self.stat(n)
            vals.append(v)
            srcs.append(s)
            if v is None and reason is None:
                reason = why
        return vals, srcs, reason

    def ratio(self, id: str, num, den, srcs, scale: float = 1.0, reason: str | None = None, note: str | None = None,
              low: bool = False) -> float | None:
        if num is None or den is None:
            self.miss(id, reason or "MISSING_INPUT", sources=srcs)
            return None
        if den == 0:
            self.miss(id, "DIV_ZERO", sources=srcs)
            return None
        return self.put(id, scale * num / den, srcs, note=note, low=low)

    def os_stat(self, name: str) -> tuple[float | None, Source | None]:
        sec = self.r.sections.get("os_stats")
        row = sec.row(name) if sec else None
        if row is None:
            return None, None
        v = row.values.get("value")
        return v, Source("os_stats", row.name, "value", row.line, v)

    def time_model(self, name: str) -> tuple[float | None, Source | None]:
        sec = self.r.sections.get("time_model")
        row = sec.row(name) if sec else None
        if row is None or row.values.get("time_s") is None:
            return None, None
        v = row.values["time_s"]
        return v, Source("time_model", row.name, "time_s", row.line, v)


def _src(section: str, row: Row, field: str) -> Source:
    return Source(section, row.name, field, row.line, row.values.get(field))


_IDLE_LOWER = tuple(sorted(IDLE_EVENTS))


def _idle(name: str, wait_class: str | None) -> bool:
    """Idle test that also knows names truncated by the text report (26/30/33 characters)."""
    if is_idle(name, wait_class):
        return True
    low = " ".join(name.lower().split())
    return len(low) >= 20 and any(e.startswith(low) for e in _IDLE_LOWER)


def _collect_events(b: _Builder) -> None:
    r, m = b.r, b.m
    bg_sec = r.sections.get("wait_events_bg")
    if bg_sec is not None:
        for row in bg_sec:
            t = row.values.get("time_s")
            if row.name and t is not None and not _idle(row.name, row.text.get("wait_class")):
                m.bg_events[row.name.lower()] = EventTime(row.name, t, row.values.get("waits"), "bg",
                                                          (_src("wait_events_bg", row, "time_s"),),
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))
    fg_sec = r.sections.get("wait_events_fg")
    all_sec = r.sections.get("wait_events")
    if fg_sec is not None:
        m.event_basis = "fg"
        for row in fg_sec:
            t = row.values.get("time_s")
            if row.name and t is not None and not _idle(row.name, row.text.get("wait_class")):
                m.fg_events[row.name.lower()] = EventTime(row.name, t, row.values.get("waits"), "fg",
                                                          (_src("wait_events_fg", row, "time_s"),),
                                                          wait_class=row.text.get("wait_class"),
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))
    elif all_sec is not None:
        # Statspack / AWR 10g: "Wait Events" is system-wide; FG = all - BG (spec M12, P09).
        m.event_basis = "all-bg" if bg_sec is not None else "all"
        for row in all_sec:
            t = row.values.get("time_s")
            if not row.name or t is None or _idle(row.name, row.text.get("wait_class")):
                continue
            srcs = [_src("wait_events", row, "time_s")]
            w = row.values.get("waits")
            bg = m.bg_events.get(row.name.lower())
            if bg is None and (row.name.lower() in BACKGROUND_ONLY or row.name.lower().startswith(NOT_DB_TIME_PREFIXES)):
                m.bg_events[row.name.lower()] = EventTime(row.name, t, w, "all", tuple(srcs),
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))
                continue
            if bg is not None:
                t = max(0.0, t - bg.time_s)
                if w is not None and bg.waits is not None:
                    w = max(0.0, w - bg.waits)
                srcs += list(bg.sources)
            m.fg_events[row.name.lower()] = EventTime(row.name, t, w, m.event_basis, tuple(srcs),
                                                      wait_class=row.text.get("wait_class"))
    elif r.sections.get("top_events") is not None:
        # Last resort: the Top-N projection (system-wide in SP, P04). Low precision.
        m.event_basis = "top"
        for row in r.sections["top_events"]:
            t = row.values.get("time_s")
            if not row.name or t is None or row.name.lower() in CPU_ROWS or _idle(row.name, row.text.get("wait_class")):
                continue
            et = EventTime(row.name, t, row.values.get("waits"), "top", (_src("top_events", row, "time_s"),),
                           wait_class=row.text.get("wait_class"), printed_avg_ms=row.values.get("avg_wait_ms"))
            if row.name.lower() in BACKGROUND_ONLY:
                # background-only events never count as foreground time; keep them as BG evidence (M31)
                m.bg_events.setdefault(row.name.lower(), et)
                continue
            m.fg_events[row.name.lower()] = et


def _time_base(b: _Builder) -> None:
    r, m = b.r, b.m
    h = r.header
    if r.elapsed_s is not None:
        b.put("elapsed_s", r.elapsed_s, [Source("header", "Elapsed", "elapsed_min", h.line, h.elapsed_min)])
    else:
        b.miss("elapsed_s")
    tm, tm_src = b.time_model("DB time")
    estimated = any("db_time_s is estimated" in i.message or ("estimat" in i.message.lower() and "db time" in i.message.lower())
                    for i in r.issues)
    if r.db_time_s is not None:
        if estimated:
            m.db_time_confidence, m.db_time_basis = "low", "estimated: CPU used by this session + FG non-idle waits"
            b.put("db_time_s", r.db_time_s, [tm_src or Source("header", "DB Time", "estimated", h.line, r.db_time_s)],
                  note="Statspack before 10g has no DB time; estimated by the parser (spec M02) - shares are approximate",
                  low=True)
        else:
            m.db_time_basis = "time model" if tm_src else "header"
            b.put("db_time_s", r.db_time_s, [tm_src or Source("header", "DB Time", "db_time_min", h.line, h.db_time_min)])
    else:
        base = _call_time_base(r)
        if base is not None:
            value, src = base
            m.db_time_confidence, m.db_time_basis = "low", "Top-N %Total base (includes background waits)"
            b.put("db_time_s", value, [src], low=True,
                  note="no DB time in the report: total call/elapsed time implied by the Top-N %Total column is used; "
                       "it includes background waits (P07), so shares are approximate")
        else:
            m.db_time_confidence, m.db_time_basis = "low", "none"
            b.miss("db_time_s")
    e, dbt = m.v("elapsed_s"), m.v("db_time_s")
    b.ratio("aas", dbt, e, [])
    cpu, cpu_src = b.time_model("DB CPU")
    if cpu is None:
        top = r.sections.get("top_events")
        for row in (top or ()):
            if row.name and row.name.lower() in CPU_ROWS and row.values.get("time_s") is not None:
                cpu, cpu_src = row.values["time_s"], _src("top_events", row, "time_s")
                break
    if cpu is None:
        v, s, _ = b.stat("CPU used by this session")
        if v is not None:
            cpu, cpu_src = v / 100.0, s
    b.put("db_cpu_s", cpu, [cpu_src])
    busy, bs = b.os_stat("BUSY_TIME")
    idle, is_ = b.os_stat("IDLE_TIME")
    if busy is not None and idle is not None and busy + idle > 0:
        b.put("host_cpu_busy_pct", 100.0 * busy / (busy + idle), [bs, is_])
    else:
        hc = r.sections.get("host_cpu")
        row = hc.rows[0] if hc and hc.rows else None
        if row is not None and row.values.get("pct_idle") is not None:
            b.put("host_cpu_busy_pct", 100.0 - row.values["pct_idle"], [_src("host_cpu", row, "pct_idle")],
                  note="100 - Host CPU %Idle")
        else:
            b.miss("host_cpu_busy_pct")
    ow, os_ = b.os_stat("OS_CPU_WAIT_TIME")
    b.ratio("os_cpu_wait_share", ow, busy, [os_, bs])
    ncpu, ns = b.os_stat("NUM_CPUS")
    if ncpu is None and h.cpus:
        ncpu, ns = float(h.cpus), Source("header", "CPUs", "cpus", h.line, float(h.cpus))
    bgcpu, bgs = b.time_model("background cpu time")
    if cpu is not None and ncpu and e:
        b.put("cpu_demand_ratio", (cpu + (bgcpu or 0.0)) / (ncpu * e), [cpu_src, bgs, ns],
              note=None if bgcpu is not None else "background cpu time not printed: DB CPU only")
    else:
        b.miss("cpu_demand_ratio")
    rm = m.fg("resmgr:cpu quantum")
    if dbt and m.event_basis:
        b.put("rsrc_mgr_wait_share", 100.0 * (rm.time_s if rm else 0.0) / dbt, rm.sources if rm else ())
    else:
        b.miss("rsrc_mgr_wait_share")


def _call_time_base(r: Report):
    """DB-time proxy when the report has none: time / (%Total/100) of the largest Top-N row."""
    top = r.sections.get("top_events")
    best = None
    for row in (top or ()):
        t = row.values.get("time_s")
        for f in ("pct_db_time", "pct_total_call_time", "pct_total_ela_time", "pct_total_wait_time"):
            p = row.values.get(f)
            if t and p and p > 0 and (best is None or t > best[0]):
                best = (t, t / (p / 100.0), _src("top_events", row, f))
    return (best[1], best[2]) if best else None


def _event_metrics(b: _Builder) -> None:
    m = b.m
    dbt = m.v("db_time_s")
    for name in WRITE_PATH_EVENTS:
        e = m.fg(name)
        if e is None:
            continue
        low = e.basis == "top"
        b.put(f"fg_time_s[{e.name}]", e.time_s, e.sources, unit="s", formula=BY_ID["fg_time_s"].formula, low=low)
        if dbt:
            b.put(f"pct_db_time[{e.name}]", 100.0 * e.time_s / dbt, e.sources, unit="%",
                  formula=BY_ID["pct_db_time"].formula, low=low or m.db_time_confidence == "low")
        if e.avg_ms is not None:
            b.put(f"avg_ms[{e.name}]", e.avg_ms, e.sources, unit="ms", formula=BY_ID["avg_ms"].formula, low=low)
    # LFPW histogram tail (M17)
    for key in ("wait_histogram", "wait_histogram_32ms"):
        sec = b.r.sections.get(key)
        row = sec.row("log file parallel write") if sec else None
        if row is not None:
            tail, got = 0.0, False
            for f, v in row.values.items():
                mm = re.match(r"^(<=?|>=?)\s*(\d+(?:\.\d+)?)\s*(us|ms|s)$", f.strip())
                if not mm:
                    continue
                got = True
                upper_ms = float(mm.group(2)) * {"us": 1e-3, "ms": 1.0, "s": 1000.0}[mm.group(3)]
                if (mm.group(1).startswith(">") or upper_ms > 8.0) and v:
                    tail += v
            if got:
                b.put("lfpw_tail_share_8ms", tail, [_src(key, row, "total_waits")])
                break
    else:
        b.miss("lfpw_tail_share_8ms")


def _redo(b: _Builder) -> None:
    m = b.m
    e = m.v("elapsed_s")
    (redo, commits, rollbacks, writes, wastage, blocks, syncw, execs), srcs, why = b.stats(
        "redo size", "user commits", "user rollbacks", "redo writes", "redo wastage", "redo blocks written",
        "redo synch writes", "execute count")
    s_redo, s_com, s_rb, s_wr, s_wa, s_bl, s_sy, s_ex = srcs
    if rollbacks is None and commits is not None:
        # AWR omits zero-valued statistics (P14): no 'user rollbacks' row next to 'user commits' means none.
        rollbacks = 0.0
    b.ratio("redo_rate_Bps", redo, e, [s_redo])
    b.ratio("commit_rate", commits, e, [s_com])
    txn = commits + rollbacks if commits is not None and rollbacks is not None else None
    b.ratio("txn_rate", txn, e, [s_com, s_rb])
    b.ratio("redo_per_commit_B", redo, commits, [s_redo, s_com])
    b.ratio("redo_per_txn_B", redo, txn, [s_redo, s_com, s_rb])
    b.ratio("sync_per_commit", syncw, commits, [s_sy, s_com])
    b.ratio("commits_per_redo_write", commits, writes, [s_com, s_wr])
    lfs = m.fg("log file sync")
    b.ratio("lfs_waits_per_commit", lfs.waits if lfs else None, commits, [*(lfs.sources if lfs else ()), s_com])
    b.ratio("exec_per_commit", execs, commits, [s_ex, s_com])
    b.ratio("rollback_ratio", rollbacks, txn, [s_rb, s_com], scale=100.0)

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


def _redo_phys_reqs(b: _Builder) -> None:
    iop = b.r.sections.get("io_profile")
    row = iop.row("Redo requests") if iop else None
    if row is not None and row.values.get("write_per_s") is not None:
        b.put("redo_phys_write_reqs", row.values["write_per_s"], [_src("io_profile", row, "write_per_s")])
        return
    ios = b.r.sections.get("iostat_function")
    row = ios.row("LGWR") if ios else None
    if row is not None and row.values.get("write_reqs_per_s") is not None:
        b.put("redo_phys_write_reqs", row.values["write_reqs_per_s"], [_src("iostat_function", row, "write_reqs_per_s")])
        return
    b.miss("redo_phys_write_reqs")


def _commit(b: _Builder) -> None:
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


def _switches(b: _Builder) -> None:
    m = b.m
    e = m.v("elapsed_s")
    sec = b.r.sections.get("thread_activity")
    row = sec.row("log switches (derived)") if sec else None
    total = None
    if row is not None and row.values.get("per_hour") is not None:
        total = row.values.get("total")
        b.put("log_switches_per_hour", row.values["per_hour"], [_src("thread_activity", row, "per_hour")])
    elif row is not None and row.values.get("total") is not None and e:
        total = row.values["total"]
        b.put("log_switches_per_hour", total * 3600.0 / e, [_src("thread_activity", row, "total")])
    else:
        b.miss("log_switches_per_hour", note="needs Instance Activity Stats - Thread Activity")
    sph = m.v("log_switches_per_hour")
    b.ratio("minutes_between_switches", 60.0, sph, [])
    (redo, wastage), (s1, s2), _ = b.stats("redo size", "redo wastage")
    if total and total >= 2 and redo is not None:
        b.put("est_log_size_B", (redo + (wastage or 0.0)) / total, [s1, s2, _src("thread_activity", row, "total")],
              note="average redo per switch; approximates the online log size")
    else:
        b.miss("est_log_size_B")
    rate = m.v("redo_rate_Bps")
    b.put("recommended_log_size_B", rate * 60 * 20 * 1.5 if rate is not None else None, [],
          note="20 minutes between switches at the average rate of this report x1.5 (single report: no peak known)")
    ck = b.r.sections.get("checkpoint_activity")
    crow = ck.rows[0] if ck and ck.rows else None
    if crow is not None and crow.values.get("log_size_writes") is not None and crow.values.get("total_physical_writes"):
        b.put("log_size_ckpt_share", 100.0 * crow.values["log_size_writes"] / crow.values["total_physical_writes"],
              [_src("checkpoint_activity", crow, "log_size_writes")])
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


def db_block_size(r: Report) -> tuple[float | None, Source | None]:
    cs = r.sections.get("cache_sizes")
    row = cs.row("Std Block Size") if cs else None
    if row is not None and row.values.get("begin"):
        return row.values["begin"], _src("cache_sizes", row, "begin")
    ip = r.sections.get("init_parameters")
    row = ip.row("db_block_size") if ip else None
    if row is not None:
        try:
            v = float(row.text.get("begin", "").replace(",", ""))
            return v, Source("init_parameters", row.name, "begin", row.line, v)
        except ValueError:
            pass
    return None, None


def _dbwr_temp_undo(b: _Builder) -> None:
    m, r = b.m, b.r
    e, dbt = m.v("elapsed_s"), m.v("db_time_s")
    (pw, ckb, tempw, sd, sm, wopt, wone, wmulti, ucv, redo, undob, rbapp, dropb), srcs, _ = b.stats(
        "physical writes", "DBWR checkpoint buffers written", "physical writes direct temporary tablespace",
        "sorts (disk)", "sorts (memory)", "workarea executions - optimal", "workarea executions - onepass",
        "workarea executions - multipass", "undo change vector size", "redo size", "DBWR undo block writes",
        "rollback changes - undo records applied", "DBWR object drop buffers written")
    b.ratio("phys_write_blocks_ps", pw, e, [srcs[0]])
    ios = r.sections.get("iostat_function")
    row = ios.row("DBWR") if ios else None
    b.put("dbwr_write_iops", row.values.get("write_reqs_per_s") if row else None,
          [_src("iostat_function", row, "write_reqs_per_s")] if row else [])
    dfpw = m.bg("db file parallel write")
    b.put("dfpw_ms", dfpw.avg_ms if dfpw else None, dfpw.sources if dfpw else ())
    has_events = m.event_basis is not None and dbt
    for id, names in (("free_buffer_wait_share", ("free buffer waits",)), ("write_complete_share", ("write complete waits",)),
                      ("temp_io_share", ("direct path write temp", "direct path read temp")),
                      ("us_enq_share", ("enq: US - contention", "undo segment extension")),
                      ("reuse_wait_share", REUSE_EVENTS)):
        if has_events:
            evs = [m.fg(n) for n in names]
            b.put(id, m.pct_db_time(*names), [s for ev in evs if ev for s in ev.sources],
                  low=m.db_time_confidence == "low" or m.event_basis == "top",
                  note=None if any(evs) else "none of the events is printed (below the print threshold or absent)")
        else:
            b.miss(id, note="needs wait events and DB time")
    b.ratio("ckpt_write_share", ckb, pw, [srcs[1], srcs[0]], scale=100.0)
    bs, bss = db_block_size(r)
    b.ratio("temp_write_MBps", tempw * bs / 2**20 if tempw is not None and bs else None, e, [srcs[2], bss])
    tw = m.fg("direct path write temp")
    b.put("temp_write_ms", tw.avg_ms if tw else None, tw.sources if tw else ())
    tot_sorts = sd + sm if sd is not None and sm is not None else None
    b.ratio("disk_sort_pct", sd, tot_sorts, [srcs[3], srcs[4]], scale=100.0)
    if wopt is not None and wone is not None:
        allw = wopt + wone + (wmulti or 0.0)
        b.ratio("multipass_onepass", wone + (wmulti or 0.0), allw, srcs[5:8], scale=100.0)
    else:
        b.miss("multipass_onepass")
    _tablespaces(b)
    b.ratio("undo_rate_Bps", ucv, e, [srcs[8]])
    b.ratio("undo_share_of_redo", ucv, redo, [srcs[8], srcs[9]])
    if undob is not None and pw:
        b.put("undo_block_write_share", 100.0 * undob / pw, [srcs[10], srcs[0]],
              note="'DBWR undo block writes' / 'physical writes'")
    elif m.v("_undo_ts_write_share") is not None:
        mv = m.values.pop("_undo_ts_write_share")
        b.put("undo_block_write_share", mv.value, mv.sources, note="UNDO tablespace writes / all tablespace writes")
    else:
        b.miss("undo_block_write_share")
    m.values.pop("_undo_ts_write_share", None)
    b.ratio("rollback_apply_rate", rbapp, e, [srcs[11]])
    us = r.sections.get("undo_summary")
    if us is not None and us.rows:
        sto = sum((x.values.get("sto") or 0.0) + (x.values.get("oos") or 0.0) for x in us.rows)
        b.put("sto_oos", sto, [_src("undo_summary", us.rows[0], "sto")])
        trs = [x.values.get("min_tuned_retention_min") for x in us.rows if x.values.get("min_tuned_retention_min") is not None]
        b.put("tuned_retention_min", min(trs) if trs else None, [_src("undo_summary", us.rows[0], "min_tuned_retention_min")])
    else:
        b.miss("sto_oos")
        b.miss("tuned_retention_min")
    enq = r.sections.get("enqueue_activity")
    ro = next((x for x in (enq or ()) if x.name and x.name.upper().startswith("RO-")), None)
    b.put("ro_wait_ms", ro.values.get("avg_wait_ms") if ro else None, [_src("enqueue_activity", ro, "avg_wait_ms")] if ro else [])
    b.ratio("drop_buffers_written", dropb, e, [srcs[12]])


def _is_temp(name: str) -> bool:
    return "TEMP" in name.upper()


def _is_undo(name: str) -> bool:
    u = name.upper()
    return "UNDO" in u or u.startswith("RBS") or u == "ROLLBACK" or u.startswith("ROLLBACK")


def _by_tablespace(sec) -> list[Row]:
    """File IO Stats rows ("TS  filename") summed per tablespace."""
    agg: dict[str, list] = {}
    for x in sec:
        if not x.name or x.values.get("writes") is None:
            continue
        ts = x.name.split()[0]
        a = agg.setdefault(ts, [0.0, 0.0, x.line])
        a[0] += x.values["writes"]
        a[1] += x.values.get("reads") or 0.0
    return [Row(ts, line, {"writes": w, "reads": rd}) for ts, (w, rd, line) in agg.items()]


def _tablespaces(b: _Builder) -> None:
    sec, key = b.r.sections.get("tablespace_io"), "tablespace_io"
    if sec is None and b.r.sections.get("file_io") is not None:
        # File IO Stats rows are per file ("TS  filename"): aggregate by tablespace
        sec, key = _by_tablespace(b.r.sections["file_io"]), "file_io"
    rows = [x for x in (sec or ()) if x.name and x.values.get("writes") is not None]
    total_w = sum(x.values["writes"] for x in rows)
    total_io = sum(x.values["writes"] + (x.values.get("reads") or 0.0) for x in rows)
    if not rows or total_w <= 0:
        b.miss("top_write_ts_share", "DIV_ZERO" if rows else "MISSING_INPUT")
        b.miss("temp_ts_share", "DIV_ZERO" if rows else "MISSING_INPUT")
        return
    top = max(rows, key=lambda x: x.values["writes"])
    b.put("top_write_ts_share", 100.0 * top.values["writes"] / total_w, [_src(key, top, "writes")],
          note=f"tablespace {top.name}")
    temp = [x for x in rows if _is_temp(x.name)]
    b.put("temp_ts_share", 100.0 * sum(x.values["writes"] + (x.values.get("reads") or 0.0) for x in temp) / total_io,
          [_src(key, x, "writes") for x in temp])
    undo = [x for x in rows if _is_undo(x.name)]
    if undo:
        b.put("_undo_ts_write_share", 100.0 * sum(x.values["writes"] for x in undo) / total_w,
              [_src(key, x, "writes") for x in undo], unit="%", formula="")


def derive(report: Report, alpha: float = DEFAULT_ALPHA) -> Metrics:
    """All metrics of one report (spec B). Never raises on missing data."""
    b = _Builder(report, alpha)
    _collect_events(b)
    _time_base(b)
    _event_metrics(b)
    _redo(b)
    _commit(b)
    _switches(b)
    _dbwr_temp_undo(b)
    b.miss("scalability_s", note="benchmark metric: needs elapsed times of 5 and 10 concurrent streams (see scalability())")
    return b.m


def scalability(t5: float, t10: float) -> float:
    """Kurtz scalability metric M103: s = 2*t5/t10 - 1 (1 perfect, 0 no gain, < 0 throughput falls)."""
    if t10 <= 0:
        raise ValueError("t10 must be positive")
    return 2.0 * t5 / t10 - 1.0


# Upper bounds in ms of the 'redo synch time overhead count' buckets, by label: 11.2
# '(<2 msec)'..'(>=128 msec)', 12.2+ '(  2ms)'..'(128ms)', '(inf)' (spec P16).
_OVERHEAD_BUCKETS = {"<2 msec": 2, "<8 msec": 8, "<32 msec": 32, "<128 msec": 128, ">=128 msec": None,
                     "2ms": 2, "8ms": 8, "32ms": 32, "128ms": 128, "inf": None}
_OVERHEAD_PREFIX = "redo synch time overhead count ("


def _overhead_buckets(b: _Builder) -> None:
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
