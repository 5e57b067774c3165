"""The log file sync decision flow (spec C.2): commit time is split ONCE into an
I/O part (LGWR writes, assigned to R01) and a non-I/O remainder, which goes to
the strongest explanation R14 > R15 > R02 > R03 > 'undetermined'."""
from __future__ import annotations

from msgspec import Struct, field

from ..metrics import Metrics, lgwr_latency
from ..numfmt import fmt_num

LFS = "log file sync"


class CommitAttribution(Struct):
    lfs_time_s: float
    lfs_waits: float
    lfs_ms: float
    pct_db_time: float | None
    L: float | None  # LGWR ms per write used
    L_id: str | None
    L_alt: float | None  # a second LGWR latency source that disagrees by > 2x
    L_alt_id: str | None
    alpha: float
    io_part_s: float | None
    non_io_part_s: float | None
    non_io_range_s: tuple[float, float] | None
    O_ms: float | None
    cpu_evidence: list[str] = field(default_factory=list)
    non_io_owner: str | None = None  # R14 | R15 | R02 | R03 | undetermined
    notes: list[str] = field(default_factory=list)

    def as_dict(self, db_time_s: float | None) -> dict:
        def pct(x):
            return None if x is None or not db_time_s else round(100.0 * x / db_time_s, 3)
        return {
            "lfs_time_s": self.lfs_time_s, "lfs_waits": self.lfs_waits, "lfs_ms": round(self.lfs_ms, 3),
            "pct_db_time": None if self.pct_db_time is None else round(self.pct_db_time, 3),
            "lgwr_ms_per_write": None if self.L is None else round(self.L, 4), "lgwr_source": self.L_id,
            "lgwr_alt_ms_per_write": None if self.L_alt is None else round(self.L_alt, 4), "lgwr_alt_source": self.L_alt_id,
            "alpha": self.alpha,
            "io_part_s": None if self.io_part_s is None else round(self.io_part_s, 1), "io_part_pct_db_time": pct(self.io_part_s),
            "non_io_part_s": None if self.non_io_part_s is None else round(self.non_io_part_s, 1),
            "non_io_part_pct_db_time": pct(self.non_io_part_s),
            "non_io_range_pct_db_time": None if self.non_io_range_s is None else [pct(self.non_io_range_s[0]), pct(self.non_io_range_s[1])],
            "non_io_ms_per_commit": None if self.O_ms is None else round(self.O_ms, 3),
            "non_io_owner": self.non_io_owner, "cpu_evidence": self.cpu_evidence, "notes": self.notes,
        }


#: An OS CPU-wait counter is a run queue only on a host this busy (% BUSY_TIME): on AIX, OS_CPU_WAIT_TIME
#: counts more than waiting for a CPU and exceeds BUSY_TIME on hosts that are mostly idle.
OS_WAIT_MIN_BUSY_PCT = 80.0


def cpu_evidence(m: Metrics) -> list[str]:
    """R02 E3 causal signals (CPU / scheduling / post-wait), each only under the conditions it was made
    for: the OS CPU-wait share counts on a busy host (>= 80 %) and only when it does not exceed the busy
    time itself."""
    out = []
    busy = m.v("host_cpu_busy_pct")
    checks = (("host_cpu_busy_pct", 90.0, "host CPU busy >= 90 %"), ("os_cpu_wait_share", 0.1, "OS CPU wait >= 10 % of busy"),
              ("cpu_demand_ratio", 0.9, "CPU demand >= 90 % of CPUs"), ("rsrc_mgr_wait_share", 1.0, "resmgr:cpu quantum >= 1 % DB time"),
              ("fg_wakeup_overhead_us", 1000.0, "FG wakeup overhead >= 1 ms per sync"),
              ("overhead_share", 30.0, "redo synch overhead >= 30 % of synch time"),
              ("poll_share", 50.0, "adaptive log file sync polling >= 50 % of syncs"))
    for k, th, label in checks:
        v = m.v(k)
        if k == "os_cpu_wait_share" and v is not None and (v > 1.0 or (busy is not None and busy < OS_WAIT_MIN_BUSY_PCT)):
            continue
        if v is not None and v >= th:
            out.append(f"{label} ({k} = {fmt_num(v)})")
    copy = m.bg("LGWR wait for redo copy")
    if copy is not None and copy.waits and copy.time_s >= 1.0 and m.v("db_time_s") and copy.time_s >= 0.001 * m.v("db_time_s"):
        out.append(f"LGWR wait for redo copy {copy.time_s:.0f} s (background)")
    return out


def attribute(m: Metrics, flash_declared: bool = False) -> CommitAttribution | None:
    lfs = m.fg(LFS)
    if lfs is None or not lfs.waits or lfs.avg_ms is None:
        return None
    L, L_id = lgwr_latency(m)
    alt, alt_id = None, None
    rw, pw = m.v("redo_write_ms"), m.v("lfpw_ms_per_write")
    if rw and pw and max(rw, pw) / min(rw, pw) > 2.0:
        alt, alt_id = (rw, "redo_write_ms") if L_id == "lfpw_ms_per_write" else (pw, "lfpw_ms_per_write")
    a = m.alpha
    ca = CommitAttribution(lfs.time_s, lfs.waits, lfs.avg_ms, m.pct_db_time(LFS), L, L_id, alt, alt_id, a,
                           None, None, None, None)
    if L is None:
        ca.notes.append("LGWR write latency unknown (needs Background Wait Events 'log file parallel write' or "
                        "'redo write time' + 'redo writes'): commit time cannot be split into I/O and non-I/O parts")
        return ca
    ca.io_part_s = min(lfs.time_s, lfs.waits * a * L / 1000.0)
    ca.non_io_part_s = lfs.time_s - ca.io_part_s
    ca.O_ms = max(0.0, lfs.avg_ms - a * L)
    if alt is not None:
        other = lfs.time_s - min(lfs.time_s, lfs.waits * a * alt / 1000.0)
        ca.non_io_range_s = (min(ca.non_io_part_s, other), max(ca.non_io_part_s, other))
        ca.notes.append(f"LGWR timing sources disagree: {L_id} = {fmt_num(L, 'ms')} vs {alt_id} = {fmt_num(alt, 'ms')} per write; "
                        "the non-I/O remainder is given as a range")
    ca.cpu_evidence = cpu_evidence(m)
    return ca
