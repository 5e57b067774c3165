"""How loaded the database was: average active sessions against the CPUs, the first line of a
verdict and the ceiling of every finding's severity (a quiet database has no critical problem).

More sessions active than CPUs is CPU saturation only when their time is CPU: DB CPU plus time
waiting for a CPU (resmgr:cpu quantum, a run queue the OS figures confirm), or a host that is
busy. When it is waits (I/O, row locks, cluster), the sessions are many but the CPUs are not the
bottleneck, and the verdict says what they wait on instead."""
from __future__ import annotations

from msgspec import Struct

from ..ledger.scale import SEVERITY_AAS, pct_text
from ..metrics import Metrics
from ..oracle.events import wait_class
from .cpu import CPU_WAIT_PCT, QUEUE_BUSY_PCT, HostCpu, db_cpu_pct
from ..numfmt import fmt_num, fmt_value

LEVELS = ("unknown", "quiet", "light", "busy", "overloaded")


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


def assess_load(m: Metrics, cpu: HostCpu, config: dict | None = None) -> Load:
    """quiet: fewer than ``quiet_aas`` (0.25) sessions active on average; light: under half the CPUs;
    busy: up to the CPU count, or more sessions than CPUs whose time is waits, not CPU; overloaded:
    more active sessions than CPUs and the CPU assessment shows them saturated (HostCpu.saturation)."""
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
        saturated = cpu.saturation
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
        if cpu.queue == "confirmed":  # not saturated, yet sessions queue for a CPU: said, as every rule reads it
            facts += f"; a CPU queue: {cpu.queue_why}"
        if (p is not None and p >= 50.0) or (busy is not None and busy >= QUEUE_BUSY_PCT):
            return Load("busy", aas, cpus, cores,
                        on + f": more sessions active than CPUs and the CPUs much used, but not saturated ({facts}); "
                        + _waits(m, besides_cpu=True))
        return Load("busy", aas, cpus, cores,
                    on + f": more sessions active than CPUs, but not CPU-bound ({facts}): " + _waits(m))
    if aas >= 0.5 * cpus:
        return Load("busy", aas, cpus, cores, on + ": busy")
    return Load("light", aas, cpus, cores, on)
