"""How loaded the database was: average active sessions against the CPUs, the first line of a
verdict and the ceiling of every finding's severity (a quiet database has no critical problem)."""
from __future__ import annotations

from dataclasses import dataclass

from ..metrics import Metrics
from .base import SEVERITY_AAS

LEVELS = ("unknown", "quiet", "light", "busy", "overloaded")


@dataclass(frozen=True, slots=True)
class Load:
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


def assess_load(m: Metrics, config: dict | None = None) -> Load:
    """quiet: fewer than ``quiet_aas`` (0.25) sessions active on average; light: under half the CPUs;
    busy: up to the CPU count; overloaded: more active sessions than CPUs (they queue for CPU or wait)."""
    scale = {**SEVERITY_AAS, **((config or {}).get("severity") or {})}
    aas, cpus, cores = m.v("aas"), m.v("cpu_count"), m.v("cpu_cores")
    if aas is None:
        return Load("unknown", None, cpus, cores, "load unknown: no DB time or elapsed time in the report")
    on = f"{aas:.3g} average active sessions" + (f" on {cpus:g} CPUs" if cpus else "") + \
         (f" ({cores:g} cores)" if cores and cpus and cores != cpus else "")
    if aas < scale["quiet_aas"]:
        dbt = m.v("db_time_s") or 0.0
        return Load("quiet", aas, cpus, cores,
                    f"no significant load: {on} ({dbt:,.0f} s of DB time); no finding is rated above minor")
    if not cpus:
        return Load("unknown", aas, cpus, cores, on + "; CPU count not printed")
    if aas > cpus:
        return Load("overloaded", aas, cpus, cores, on + ": more sessions active than CPUs, they queue")
    if aas >= 0.5 * cpus:
        return Load("busy", aas, cpus, cores, on + ": busy")
    return Load("light", aas, cpus, cores, on)
