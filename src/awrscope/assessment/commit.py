"""The commit path explained whole: the average log file sync wait split, once, into parts that add up
to it, each owned by the cause that would shorten it. Continuous in every figure: no part appears or
vanishes at a ratio, a rate or a latency cliff, so consecutive windows of one database get the same
causes with shares that move with their figures.

Per wait, with L the LGWR write latency (ms per redo write) and alpha the queueing factor (a commit
waits for the write in progress and then its own: 1-2 writes, spec C.2):

  I/O part        io = min(lfs_ms, alpha x L)
    slow storage  alpha x max(0, L - REDO_WRITE_OK_MS)             -> R01 (faster redo storage saves it)
    commit cost   io - slow storage                                 -> R03 (each commit needs a write: fewer commits)
  non-I/O part    O = lfs_ms - io
    Data Guard    min(O, SYNC remote write ms)                      -> R14
    polling       poll share x max(L, MIN_POLL_MS)                  -> R15 (a polled commit overshoots by <= one interval)
    post/wake     'redo synch time overhead' per sync, when printed -> R02 (LGWR's post, the foreground's wake-up)
    posting base  O_NORMAL_MS, when the overhead is not printed     -> R03 (every commit is posted)
    the rest      CPU pressure in the CPU assessment                -> R02 (CPU / scheduling of LGWR and the sessions)
                  no CPU pressure: a share of it that grows with L from 5 to 10 ms is queueing behind slow
                  writes -> R01 for (1 - 1 ms / L) of it, what healthy writes would leave -> R03; what is
                  left -> R02, cause undetermined, naming the figures the report lacks.
Two LGWR timing sources that disagree by more than 2x: the parts rest on the lower one."""
from __future__ import annotations

from ..numfmt import fmt_num

from msgspec import Struct, field

from ..metrics import Metrics, lgwr_latency
from .cpu import HostCpu

LFS = "log file sync"

#: A redo write at or under this latency is healthy (flash, a write-cached array): the part of the commit wait
#: above it is what faster redo storage can save.
REDO_WRITE_OK_MS = 1.0
#: The LGWR latency band over which the non-I/O rest turns, without CPU pressure, from undetermined into queueing
#: behind slow writes (C.2's special case, graded instead of a cliff at tier poor).
QUEUEING_FROM_MS, QUEUEING_FULL_MS = 5.0, 10.0
#: A polled commit overshoots its write by at most one poll interval, which follows LGWR's write time.
MIN_POLL_MS = 1.0
#: What posting a committing session costs when nothing is wrong (spec R02 o_normal_ms).
O_NORMAL_MS = 0.2
#: The commit path is material from this share of DB time, or pathological per commit.
MATERIAL_PCT, PATHOLOGY_MS, PATHOLOGY_MIN_WAITS = 5.0, 20.0, 100

#: Part names, in the order they are taken from the wait.
PARTS = ("slow redo writes", "a redo write per commit", "Data Guard SYNC", "adaptive polling", "post/wake-up overhead",
         "posting each commit", "CPU / scheduling", "queueing behind slow writes", "cause undetermined",
         "queueing behind healthy writes")


class CommitPart(Struct):
    name: str
    owner: str  # the rule that claims it: R01 R02 R03 R14 R15
    ms: float  # per log file sync wait
    seconds: float
    basis: str  # the formula with its figures

    def as_dict(self, db_time_s: float | None) -> dict:
        return {"name": self.name, "owner": self.owner, "ms_per_wait": round(self.ms, 4), "seconds": round(self.seconds, 3),
                "pct_db_time": round(100.0 * self.seconds / db_time_s, 3) if db_time_s else None, "basis": self.basis}


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
    cpu_evidence: list[str] = field(default_factory=list)  # the CPU assessment's pressure, as figures
    non_io_owner: str | None = None  # the owner of the largest non-I/O part
    notes: list[str] = field(default_factory=list)
    parts: list[CommitPart] = field(default_factory=list)
    material: bool = False
    missing: list[str] = field(default_factory=list)  # figures the report lacks to determine the rest

    @property
    def L_parts(self) -> float | None:
        """The LGWR latency the parts rest on: the lower of two sources that disagree."""
        return min(self.L, self.L_alt) if self.L is not None and self.L_alt else self.L

    def part_s(self, owner: str) -> float:
        return sum(p.seconds for p in self.parts if p.owner == owner)

    def part_ms(self, owner: str) -> float:
        return sum(p.ms for p in self.parts if p.owner == owner)

    def parts_of(self, owner: str) -> list[CommitPart]:
        return [p for p in self.parts if p.owner == owner]

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
            "material": self.material, "parts": [p.as_dict(db_time_s) for p in self.parts], "missing": list(self.missing),
        }


def pathological(ca: CommitAttribution, pathology_ms: float = PATHOLOGY_MS) -> bool:
    """C.0: a per-commit latency that must be reported whatever its share of DB time."""
    if ca.lfs_waits < PATHOLOGY_MIN_WAITS:
        return False
    return ca.lfs_ms >= pathology_ms or bool(ca.L and ca.lfs_ms >= 10 * ca.L and ca.lfs_ms >= 5.0)


def attribute(m: Metrics, cpu: HostCpu, flash_declared: bool = False) -> CommitAttribution | None:
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
    ca.material = (ca.pct_db_time or 0.0) >= MATERIAL_PCT or pathological(ca)
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
    ca.cpu_evidence = cpu.signals()
    ca.parts = _decompose(m, ca, cpu)
    ca.missing = _missing(m, cpu)
    non_io = {}
    for p in ca.parts[2:] if len(ca.parts) > 2 else ():
        non_io[p.owner] = non_io.get(p.owner, 0.0) + p.seconds
    ca.non_io_owner = max(non_io, key=non_io.get) if non_io and max(non_io.values()) > 0 else None
    return ca


def _decompose(m: Metrics, ca: CommitAttribution, cpu: HostCpu) -> list[CommitPart]:
    waits, lfs_ms, a = ca.lfs_waits, ca.lfs_ms, ca.alpha
    # two LGWR timing sources that disagree: the parts rest on the lower, so that faster storage is promised only
    # what both sources support (the range of the non-I/O part is said in the notes)
    L = ca.L_parts
    out: list[CommitPart] = []

    def take(name: str, owner: str, ms: float, basis: str) -> float:
        ms = max(0.0, ms)
        out.append(CommitPart(name, owner, ms, waits * ms / 1000.0, basis))
        return ms

    io = min(lfs_ms, a * L)
    # the write a healthy system still pays comes first: faster storage cannot remove it
    base = min(io, a * min(L, REDO_WRITE_OK_MS))
    take(PARTS[0], "R01", io - base, f"alpha x (L - {REDO_WRITE_OK_MS:g} ms) = {a:g} x ({fmt_num(L)} - {REDO_WRITE_OK_MS:g}) ms"
         + (" (L healthy: none)" if L <= REDO_WRITE_OK_MS else f", capped at the wait {fmt_num(lfs_ms, 'ms')}" if io < a * L else ""))
    take(PARTS[1], "R03", base, f"alpha x min(L, {REDO_WRITE_OK_MS:g} ms) = {a:g} x {fmt_num(min(L, REDO_WRITE_OK_MS), 'ms')}")
    rest = lfs_ms - io
    rs = m.v("remote_sync_ms")
    if rs is not None:
        rest -= take(PARTS[2], "R14", min(rest, rs), f"SYNC remote write {fmt_num(rs, 'ms')}, at most the non-I/O part")
    poll = m.v("poll_share")
    if poll:
        bound = max(L, MIN_POLL_MS)
        rest -= take(PARTS[3], "R15", min(rest, poll / 100.0 * bound),
                     f"{fmt_num(poll, '%')} of syncs polled x max(L, {MIN_POLL_MS:g} ms) = {fmt_num(poll / 100.0 * bound, 'ms')}")
    ovh = m.v("fg_wakeup_overhead_us")
    if ovh is not None:
        rest -= take(PARTS[4], "R02", min(rest, ovh / 1000.0),
                     f"'redo synch time overhead' {fmt_num(ovh / 1000.0, 'ms')} per sync")
    else:
        rest -= take(PARTS[5], "R03", min(rest, O_NORMAL_MS), f"{O_NORMAL_MS:g} ms per commit (overhead not printed)")
    if rest <= 0:
        return out
    if cpu.pressure:
        take(PARTS[6], "R02", rest, "the rest, with CPU pressure: " + "; ".join(cpu.signals()))
        return out
    share = min(1.0, max(0.0, (L - QUEUEING_FROM_MS) / (QUEUEING_FULL_MS - QUEUEING_FROM_MS)))
    if share > 0:
        # queueing behind writes shrinks with them: what healthy writes would leave of it is the commits' own
        queued = share * rest
        basis = (f"{100.0 * share:.0f} % of the rest (none at L {QUEUEING_FROM_MS:g} ms, all from {QUEUEING_FULL_MS:g} "
                 f"ms; L {fmt_num(L, 'ms')}, no CPU pressure)")
        take(PARTS[7], "R01", queued * (1.0 - REDO_WRITE_OK_MS / L), basis + f" x (1 - {REDO_WRITE_OK_MS:g} ms / L)")
        take(PARTS[9], "R03", queued * REDO_WRITE_OK_MS / L, basis + f" x {REDO_WRITE_OK_MS:g} ms / L")
        rest -= queued
    if rest > 0:
        take(PARTS[8], "R02", rest, "the rest, no CPU pressure in the report (" + cpu.queue_why + ")")
    return out


def _missing(m: Metrics, cpu: HostCpu) -> list[str]:
    """The figures that would determine a non-I/O rest the report leaves undetermined."""
    out = []
    if cpu.queue == "unknown":
        out.append("OS statistics (host CPU busy, OS_CPU_WAIT_TIME: a run queue)")
    if m.v("fg_wakeup_overhead_us") is None:
        out.append("'redo synch time overhead (usec)' (12c+: the post/wake-up part)")
    if m.v("poll_share") is None:
        out.append("'redo synch poll writes' (11.2+: adaptive polling)")
    return out
