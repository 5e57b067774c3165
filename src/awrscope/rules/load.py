"""How loaded the database was: average active sessions against the CPUs, the first line of a
verdict and the ceiling of every finding's severity (a quiet database has no critical problem).

More sessions active than CPUs is CPU saturation only when their time is CPU: DB CPU plus time
waiting for a CPU (resmgr:cpu quantum, a run queue the OS figures confirm), or a host that is
busy. When it is waits (I/O, row locks, cluster), the sessions are many but the CPUs are not the
bottleneck, and the verdict says what they wait on instead."""
from __future__ import annotations

from msgspec import Struct

from ..metrics import Metrics
from ..oracle.events import wait_class
from .base import SEVERITY_AAS, pct_text
from ..numfmt import fmt_num, fmt_value

LEVELS = ("unknown", "quiet", "light", "busy", "overloaded")

#: The host's CPUs are saturated from this share busy on (G02's threshold, R02's CPU evidence).
SATURATED_BUSY_PCT = 90.0
#: ... or when DB and background CPU use this share of the CPUs (G02's 'demand').
SATURATED_DEMAND = 0.9
#: Time waiting for a CPU that makes the sessions CPU-bound, % of DB time (G10's threshold).
CPU_WAIT_PCT = 10.0
#: Sessions on CPU or in the gap per core from which an OS_CPU_WAIT_TIME above BUSY_TIME stands for a run queue.
OS_WAIT_PER_CORE = 0.5
#: A busy host (% busy) confirms that time neither on CPU nor in a wait is a run queue (G10).
QUEUE_BUSY_PCT = 80.0


class Load(Struct, frozen=True):
    level: str
    aas: float | None
    cpu_count: float | None
    cpu_cores: float | None
    summary: str

    def as_dict(self) -> dict:
        return {"level": self.level, "aas": None if self.aas is None else round(self.aas, 3),
                "cpu_count": self.cpu_count, "cpu_cores": self.cpu_cores,
                "aas_per_cpu": None if not (self.aas is not None and self.cpu_count) else round(self.aas / self.cpu_count, 3),
                "summary": self.summary}


def run_queue_confirmed(m: Metrics, gap_s: float) -> str | None:
    """What in the report confirms that ``gap_s`` seconds of DB time neither on CPU nor in a printed
    wait (metric unaccounted_s) are sessions queued for a CPU, or None when nothing does. The OS
    figures decide when printed: the run queue (OS_CPU_WAIT_TIME) long enough for a quarter of the
    gap, or a host at least 80 % busy; a short run queue or an idle host refutes it. Only without
    them (or when the busy % counts SMT threads and understates saturation: by at most the threads per
    core) do the sessions on CPU or in the gap outnumbering the CPUs stand in: more sessions active
    than CPUs alone is no CPU queue when their time is waits."""
    e, q, busy = m.v("elapsed_s"), m.v("cpu_queue_aas"), m.v("host_cpu_busy_pct")
    cpus, cores, cpu = m.v("cpu_count"), m.v("cpu_cores"), m.v("db_cpu_s")
    if not gap_s or not e:
        return None
    if q is not None and (m.v("os_cpu_wait_share") or 0.0) > 1.0:
        # OS_CPU_WAIT_TIME above BUSY_TIME (AIX counts more than a run queue in it) is not proof of a CPU queue by
        # itself; it stands when the sessions on CPU or in the gap are half a session per core or more (SMT threads
        # share a core's throughput, which saturates well before every thread runs)
        per_core = (cpu or 0.0) + gap_s
        if not (cores and per_core / e / cores >= OS_WAIT_PER_CORE):
            q = None
        # nor when the host had idle cores even counting SMT (15.6 % of 12 threads on 3 cores is 62 % of the cores
        # at most): a run queue does not stand beside idle cores
        elif busy is not None and busy * (cpus / cores if cpus and cores and cpus >= 2 * cores else 1.0) < QUEUE_BUSY_PCT:
            q = None
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


def db_cpu_pct(m: Metrics) -> float | None:
    """DB CPU's share of DB time as the report's figures give it: not capped at 100 % when the report
    prints DB CPU above DB time (see rules.general.db_cpu_evidence)."""
    cpu, dbt = m.v("db_cpu_s"), m.v("db_time_s")
    return 100.0 * cpu / dbt if cpu is not None and dbt else None


def cpu_saturation(m: Metrics) -> list[str]:
    """The report's own figures that show the CPUs saturated or sessions queued for them: host busy
    >= 90 %, DB + background CPU >= 0.9 of the CPUs, or >= 10 % of DB time waiting for a CPU
    (resmgr:cpu quantum, plus the time neither on CPU nor in a wait when an OS figure confirms a
    run queue). Empty when none does."""
    out = []
    busy, demand, dbt = m.v("host_cpu_busy_pct"), m.v("cpu_demand_ratio"), m.v("db_time_s")
    if busy is not None and busy >= SATURATED_BUSY_PCT:
        out.append(f"host {pct_text(busy)} busy")
    if demand is not None and demand >= SATURATED_DEMAND:
        out.append(f"DB and background CPU {fmt_value(demand, 'CPUs')} of the CPUs")
    if dbt:
        rm = m.fg_time("resmgr:cpu quantum")
        gap = m.v("unaccounted_s") or 0.0
        queued = gap if gap and run_queue_confirmed(m, gap) else 0.0
        wait = rm + queued
        if 100.0 * wait / dbt >= CPU_WAIT_PCT:
            if rm and queued:
                out.append(f"{100.0 * wait / dbt:.1f} % of DB time waiting for CPU: {100.0 * rm / dbt:.1f} % in "
                           f"resmgr:cpu quantum, {100.0 * queued / dbt:.1f} % in the run queue")
            else:
                out.append(f"{100.0 * wait / dbt:.1f} % of DB time waiting for CPU "
                           + ("in resmgr:cpu quantum" if rm else "in the run queue"))
    return out


def _waits(m: Metrics, besides_cpu: bool = False) -> str:
    """What the sessions' time goes to instead of CPU: the largest wait class (its largest event), or the
    time neither on CPU nor in a printed wait when that is larger."""
    dbt = m.v("db_time_s")
    by_class: dict[str, list] = {}
    for e in m.fg_events.values():
        if dbt and e.time_s > 1.001 * dbt:  # not (only) foreground time (system-wide RMAN I/O): as G01
            continue
        by_class.setdefault(wait_class(e.name, e.wait_class), []).append(e)
    classes = sorted(((sum(e.time_s for e in evs), c, max(evs, key=lambda e: e.time_s)) for c, evs in by_class.items()),
                     key=lambda x: -x[0])
    gap = m.v("unaccounted_s") or 0.0
    they = "besides CPU they" if besides_cpu else "they"
    if dbt and gap >= CPU_WAIT_PCT / 100.0 * dbt and (not classes or gap > classes[0][0]):
        return (f"{they} are mostly neither on CPU nor in a printed wait ({100.0 * gap / dbt:.1f} % of DB time), "
                "and no OS figure shows a CPU queue")
    if not classes or not dbt:
        return f"{they} wait (the report prints no wait events to say on what)"
    t, cls, top = classes[0]
    return f"{they} wait, mostly on {cls} ({100.0 * t / dbt:.1f} % of DB time; {top.name} {100.0 * top.time_s / dbt:.1f} %)"


def _whose(m: Metrics, aas: float) -> str:
    """'foreground ' where the sessions counted are an ASH report's foreground part, with the printed figure
    (background included) beside it: 13.7 where the report prints 15.28."""
    dbt, e = m.get("db_time_s"), m.v("elapsed_s")
    if not m.db_time_basis.startswith("ASH samples") or dbt is None or not dbt.sources or not e:
        return ""
    printed = (dbt.sources[0].value or 0.0) / e
    return f"foreground (of {fmt_value(printed, 'sessions')} printed, background included) " if printed > aas * 1.005 else "foreground "


def assess_load(m: Metrics, config: dict | None = None) -> Load:
    """quiet: fewer than ``quiet_aas`` (0.25) sessions active on average; light: under half the CPUs;
    busy: up to the CPU count, or more sessions than CPUs whose time is waits, not CPU; overloaded:
    more active sessions than CPUs and the report shows the CPUs saturated (cpu_saturation)."""
    scale = {**SEVERITY_AAS, **((config or {}).get("severity") or {})}
    aas, cpus, cores = m.v("aas"), m.v("cpu_count"), m.v("cpu_cores")
    if aas is None:
        return Load("unknown", None, cpus, cores, "load unknown: no DB time or elapsed time in the report")
    on = fmt_value(aas, 'sessions') + f" {_whose(m, aas)}average active sessions" + \
        (f" on {cpus:g} CPUs" if cpus else "") + (f" ({cores:g} cores)" if cores and cpus and cores != cpus else "")
    if aas < scale["quiet_aas"]:
        dbt = m.v("db_time_s") or 0.0
        return Load("quiet", aas, cpus, cores,
                    f"no significant load: {on} ({dbt:,.0f} s of DB time); no finding is rated above minor")
    if not cpus:
        return Load("unknown", aas, cpus, cores, on + "; CPU count not printed")
    if aas > cpus:
        saturated = cpu_saturation(m)
        if saturated:
            return Load("overloaded", aas, cpus, cores,
                        on + ": CPU-bound, more sessions active than CPUs and the CPUs saturated ("
                        + "; ".join(saturated) + "): sessions queue for CPU")
        p, busy = db_cpu_pct(m), m.v("host_cpu_busy_pct")
        if p is None and busy is None:
            return Load("busy", aas, cpus, cores,
                        on + ": more sessions active than CPUs; the report prints neither DB CPU nor host CPU "
                        "use, so whether they queue for CPU or wait cannot be told")
        facts = ", ".join(([f"{m.cpu_label()} {p:.1f} % of DB time"] if p is not None else [])
                          + ([f"host {pct_text(busy)} busy"] if busy is not None else []))
        if (p is not None and p >= 50.0) or (busy is not None and busy >= QUEUE_BUSY_PCT):
            return Load("busy", aas, cpus, cores,
                        on + f": more sessions active than CPUs and the CPUs much used, but not saturated ({facts}); "
                        + _waits(m, besides_cpu=True))
        return Load("busy", aas, cpus, cores,
                    on + f": more sessions active than CPUs, but not CPU-bound ({facts}): " + _waits(m))
    if aas >= 0.5 * cpus:
        return Load("busy", aas, cpus, cores, on + ": busy")
    return Load("light", aas, cpus, cores, on)
