"""The host's CPU as one graded reading of the window: how many CPUs (threads, cores), how busy, whether
sessions queue for a CPU and how much DB time that costs. Every rule, the load line and the commit path
read this one reading; none tests a CPU figure against a gate of its own.

The states are graded, each with the figures that decide it:
- ``queue``: ``confirmed`` (a run queue the OS figures show, Resource Manager throttling, or DB time
  neither on CPU nor waiting that a busy host or a long run queue accounts for), ``refuted`` (OS figures
  printed and none shows one), ``unknown`` (no OS figures);
- ``state``: ``saturated`` (host >= 90 % busy, DB + background CPU >= 0.9 of the CPUs, or >= 10 % of DB
  time waiting for a CPU), ``busy`` (>= 60 % of the cores busy, or a confirmed queue), ``moderate``
  (>= 25 %), ``idle``, ``unknown`` (neither host CPU nor the CPU demand printed)."""
from __future__ import annotations

from ..numfmt import fmt_num, fmt_value

from msgspec import Struct, field

from ..ledger.scale import pct_text
from ..metrics import Metrics
from ..model import Report

#: The host's CPUs are saturated from this share busy on.
SATURATED_BUSY_PCT = 90.0
#: ... or when DB and background CPU use this share of the CPUs.
SATURATED_DEMAND = 0.9
#: Time waiting for a CPU that makes the sessions CPU-bound, % of DB time.
CPU_WAIT_PCT = 10.0
#: Sessions on CPU or in the gap per core from which an OS_CPU_WAIT_TIME above BUSY_TIME stands for a run queue.
OS_WAIT_PER_CORE = 0.5
#: A busy host (% busy) confirms that time neither on CPU nor in a wait is a run queue.
QUEUE_BUSY_PCT = 80.0
#: Resource Manager's CPU throttling that counts as a queue, % of DB time.
RESMGR_QUEUE_PCT = 1.0
#: Share of the cores busy from which the host is 'busy' / 'moderate'.
BUSY_PCT, MODERATE_PCT = 60.0, 25.0


class HostCpu(Struct):
    cpus: float | None
    cores: float | None
    busy_pct: float | None  # host busy % as printed (over the CPUs the OS counts: SMT threads on AIX, SPARC, x86 HT)
    cores_busy_max_pct: float | None  # the most the cores can be busy given busy_pct and threads per core
    demand: float | None  # (DB + background CPU) / (CPUs x elapsed)
    run_queue: float | None  # OS_CPU_WAIT_TIME / elapsed: processes waiting for a CPU on average (trusted or not)
    run_queue_per_core: float | None
    gap_pct: float | None  # DB time neither on CPU nor in a printed wait, % of DB time
    resmgr_pct: float | None
    queue: str  # confirmed | refuted | unknown
    queue_why: str
    state: str  # saturated | busy | moderate | idle | unknown
    wait_for_cpu_s: float  # DB time waiting for a CPU: resmgr:cpu quantum + the gap when the queue is confirmed
    saturation: list[str] = field(default_factory=list)  # the figures that show the CPUs saturated
    gap_queued: str | None = None  # what shows the DB time neither on CPU nor waiting to be a run queue

    @property
    def pressure(self) -> bool:
        """Sessions (LGWR among them) can wait for a CPU: the host is saturated or a queue is confirmed."""
        return self.state == "saturated" or self.queue == "confirmed"

    def signals(self) -> list[str]:
        """The CPU pressure as figures, for a finding's evidence: empty when there is none."""
        if not self.pressure:
            return []
        return list(self.saturation) or [self.queue_why]

    def as_dict(self) -> dict:
        def r(x, n=3):
            return None if x is None else round(x, n)
        return {"cpus": self.cpus, "cores": self.cores, "busy_pct": r(self.busy_pct),
                "cores_busy_max_pct": r(self.cores_busy_max_pct), "demand": r(self.demand), "run_queue": r(self.run_queue),
                "run_queue_per_core": r(self.run_queue_per_core), "gap_pct": r(self.gap_pct),
                "resmgr_pct": r(self.resmgr_pct), "queue": self.queue, "queue_why": self.queue_why, "state": self.state,
                "pressure": self.pressure, "wait_for_cpu_s": r(self.wait_for_cpu_s), "saturation": list(self.saturation),
                "gap_queued": self.gap_queued}


def run_queue_confirmed(m: Metrics, gap_s: float) -> str | None:
    """What in the report confirms that ``gap_s`` seconds of DB time neither on CPU nor in a printed
    wait (metric unaccounted_s) are sessions queued for a CPU, or None when nothing does. The OS
    figures decide when printed: the run queue (OS_CPU_WAIT_TIME) long enough for a quarter of the
    gap, or a host at least 80 % busy; a short run queue or an idle host refutes it. Only without
    them (or when the busy % counts SMT threads and understates saturation: by at most the threads per
    core) do the sessions on CPU or in the gap outnumbering the CPUs stand in: more sessions active
    than CPUs alone is no CPU queue when their time is waits."""
    e, q, busy = m.v("elapsed_s"), trusted_run_queue(m, gap_s), m.v("host_cpu_busy_pct")
    cpus, cores, cpu = m.v("cpu_count"), m.v("cpu_cores"), m.v("db_cpu_s")
    if not gap_s or not e:
        return None
    if q is not None and q >= 0.25 * gap_s / e:
        return f"OS run queue {fmt_num(q)} processes on average"
    if busy is not None and busy >= QUEUE_BUSY_PCT:
        return f"host {pct_text(busy)} busy"
    # SMT threads counted as CPUs understate a core's saturation by at most their number per core: a host whose busy
    # % times that is still under QUEUE_BUSY_PCT has idle cores (15.6 % of 12 threads on 3 cores: 62 % at most)
    smt = bool(cpus and cores and cpus >= 2 * cores and (busy is None or busy * cpus / cores >= QUEUE_BUSY_PCT))
    if q is None and (busy is None or smt) and cpus and cpu is not None and (cpu + gap_s) / e > cpus:
        return (f"{fmt_num((cpu + gap_s) / e, 'sessions')} on CPU or neither on CPU nor waiting, more than {cpus:g} CPUs"
                + (" (no OS CPU figures)" if busy is None else " (SMT threads: the host's busy % understates it)"))
    return None


def trusted_run_queue(m: Metrics, gap_s: float) -> float | None:
    """OS_CPU_WAIT_TIME per second as a run queue, or None where it is no proof of one: above BUSY_TIME (AIX
    counts more than a run queue in it) it stands only with half a session per core on CPU or in the gap (SMT
    threads share a core's throughput, which saturates well before every thread runs) and no idle cores even
    counting SMT (15.6 % of 12 threads on 3 cores is 62 % of the cores at most)."""
    e, q, busy = m.v("elapsed_s"), m.v("cpu_queue_aas"), m.v("host_cpu_busy_pct")
    cpus, cores, cpu = m.v("cpu_count"), m.v("cpu_cores"), m.v("db_cpu_s")
    if q is None or not e or (m.v("os_cpu_wait_share") or 0.0) <= 1.0:
        return q
    per_core = (cpu or 0.0) + (gap_s or 0.0)
    if not (cores and per_core / e / cores >= OS_WAIT_PER_CORE):
        return None
    if busy is not None and busy * (cpus / cores if cpus and cores and cpus >= 2 * cores else 1.0) < QUEUE_BUSY_PCT:
        return None
    return q


def db_cpu_pct(m: Metrics) -> float | None:
    """DB CPU's share of DB time as the report's figures give it: not capped at 100 % when the report
    prints DB CPU above DB time."""
    cpu, dbt = m.v("db_cpu_s"), m.v("db_time_s")
    return 100.0 * cpu / dbt if cpu is not None and dbt else None


def assess_cpu(m: Metrics, report: Report | None = None) -> HostCpu:
    busy, demand, dbt = m.v("host_cpu_busy_pct"), m.v("cpu_demand_ratio"), m.v("db_time_s")
    cpus, cores, e = m.v("cpu_count"), m.v("cpu_cores"), m.v("elapsed_s")
    gap = m.v("unaccounted_s") or 0.0
    rm = m.fg_time("resmgr:cpu quantum")
    q = m.v("cpu_queue_aas")
    tq = trusted_run_queue(m, gap)
    threads = cpus / cores if cpus and cores and cpus >= 2 * cores else 1.0
    cores_busy = min(100.0, busy * threads) if busy is not None else None
    per_core = f"OS run queue {fmt_num(tq)} processes on average, {fmt_num(tq / cores)} per core" \
        if tq is not None and cores and tq / cores >= 1.0 else None
    confirmed = (run_queue_confirmed(m, gap) or per_core) if dbt and gap >= 0.02 * dbt else None
    queued = gap if confirmed else 0.0
    wait = rm + queued
    if dbt and 100.0 * rm / dbt >= RESMGR_QUEUE_PCT:
        queue, why = "confirmed", f"resmgr:cpu quantum {100.0 * rm / dbt:.1f} % of DB time"
    elif confirmed:
        queue, why = "confirmed", (f"{100.0 * gap / dbt:.1f} % of DB time neither on CPU nor waiting, with the "
                                   + confirmed)
    elif per_core:
        queue, why = "confirmed", per_core
    elif busy is not None or q is not None:
        queue = "refuted"
        why = ", ".join(x for x in (
            f"host {pct_text(busy)} busy" + (f" (its cores at most {pct_text(cores_busy)})" if threads > 1 else "")
            if busy is not None else "",
            (f"OS run queue {fmt_num(q)} processes" + (" (OS_CPU_WAIT_TIME above BUSY_TIME: no run queue by itself)"
                                                   if tq is None else "")) if q is not None else "") if x)
    else:
        queue, why = "unknown", "no OS statistics (host CPU busy, OS_CPU_WAIT_TIME) in the report"
    saturation = []
    if busy is not None and busy >= SATURATED_BUSY_PCT:
        saturation.append(f"host {pct_text(busy)} busy")
    if demand is not None and demand >= SATURATED_DEMAND:
        saturation.append(f"DB and background CPU {fmt_value(demand, 'CPUs')} of the CPUs")
    if dbt and 100.0 * wait / dbt >= CPU_WAIT_PCT:
        if rm and queued:
            saturation.append(f"{100.0 * wait / dbt:.1f} % of DB time waiting for CPU: {100.0 * rm / dbt:.1f} % in "
                              f"resmgr:cpu quantum, {100.0 * queued / dbt:.1f} % in the run queue")
        else:
            saturation.append(f"{100.0 * wait / dbt:.1f} % of DB time waiting for CPU "
                              + ("in resmgr:cpu quantum" if rm else "in the run queue"))
    if saturation:
        state = "saturated"
    elif busy is None and demand is None:
        state = "busy" if queue == "confirmed" else "unknown"
    else:
        use = cores_busy if cores_busy is not None else 100.0 * demand
        state = "busy" if use >= BUSY_PCT or queue == "confirmed" else "moderate" if use >= MODERATE_PCT else "idle"
    return HostCpu(cpus, cores, busy, cores_busy if threads > 1 else busy, demand, q,
                   (q / cores if q is not None and cores else None),
                   (100.0 * gap / dbt if dbt else None), (100.0 * rm / dbt if dbt else None), queue, why, state,
                   wait, saturation, confirmed)
