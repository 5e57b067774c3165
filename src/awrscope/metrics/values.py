"""Metric values with provenance: what a rule reads and what the JSON prints."""
from __future__ import annotations

from msgspec import Struct, field
from typing import Iterator


class Source(Struct, frozen=True, gc=False):
    """Where one input number came from in the report."""

    section: str
    row: str | None
    field: str | None
    line: int | None
    value: float | None = None

    def as_dict(self) -> dict:
        return {"section": self.section, "row": self.row, "field": self.field, "line": self.line, "value": self.value}


class MetricValue(Struct, frozen=True):
    id: str
    value: float | None
    unit: str
    formula: str
    sources: tuple[Source, ...] = ()
    reason: str | None = None  # reason code when value is None
    note: str | None = None  # caveat (precision, fallback used, ...)
    low_precision: bool = False

    def as_dict(self) -> dict:
        d: dict = {"value": self.value, "unit": self.unit, "formula": self.formula,
                   "source": [s.as_dict() for s in self.sources]}
        if self.reason:
            d["reason"] = self.reason
        if self.note:
            d["note"] = self.note
        if self.low_precision:
            d["low_precision"] = True
        return d


class EventTime(Struct, frozen=True):
    """Foreground (or background) time of one wait event, with how it was obtained.

    basis: 'fg' (Foreground Wait Events), 'all-bg' (system-wide minus background),
    'all' (system-wide, no background section), 'bg', 'top' (Top-N projection)."""

    name: str
    time_s: float
    waits: float | None
    basis: str
    sources: tuple[Source, ...]
    printed: bool = True  # False: the section exists but the event is not printed (below threshold)
    wait_class: str | None = None
    printed_avg_ms: float | None = None  # the report's own average, used when time_s is too coarse

    @property
    def avg_ms(self) -> float | None:
        """The most precise average wait: the report's printed average when its rounding error
        is small (at most 2.5 %) or smaller than that of time/waits (totals printed in whole
        seconds: 73 s is +-0.7 %, 4.54 ms +-0.1 %), else 1000*time/waits (P05)."""
        if not (self.waits and self.waits > 0 and self.printed):
            return None
        if self.avg_ms_basis == "printed average":
            return self.printed_avg_ms
        return 1000.0 * self.time_s / self.waits

    @property
    def avg_ms_basis(self) -> str:
        p = self.printed_avg_ms
        if p is None or p <= 0 or self.basis not in ("fg", "bg", "top", "all", "all-bg"):
            return "1000*time/waits"
        err_p = rounding_error(p)
        err_c = rounding_error(self.time_s) if self.time_s else float("inf")
        return "printed average" if err_p <= PRINTED_AVG_MAX_ROUNDING or err_p < err_c else "1000*time/waits"


#: A printed average is used when its rounding error is at most this share of it.
PRINTED_AVG_MAX_ROUNDING = 0.025


def rounding_error(v: float) -> float:
    """Half a unit of the last printed digit of ``v``, relative to ``v`` (4.54 -> 0.0011)."""
    s = repr(float(v))
    decimals = 6 if "e" in s else (len(s.split(".")[1].rstrip("0")) if "." in s else 0)
    return 0.5 * 10 ** -decimals / abs(v) if v else float("inf")


#: DB time bases that are the instance's measured DB time (not an estimate nor a Top-N base): the ledger's
#: remainder and unaccounted-for time are computed only on these
MEASURED_DB_TIME = frozenset({"time model", "header", "the SQL section's Total DB Time"})


class Metrics(Struct):
    """All derived metrics of one report, keyed by metric id."""

    values: dict[str, MetricValue] = field(default_factory=dict)
    fg_events: dict[str, EventTime] = field(default_factory=dict)  # non-idle FG events (by name)
    bg_events: dict[str, EventTime] = field(default_factory=dict)
    db_time_confidence: str = "high"  # high | medium | low (estimated DB time)
    db_time_basis: str = "time model"
    event_basis: str | None = None  # fg | all-bg | all | top
    alpha: float = 1.5

    def __getitem__(self, key: str) -> MetricValue:
        return self.values[key]

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def get(self, key: str) -> MetricValue | None:
        return self.values.get(key)

    def v(self, key: str) -> float | None:
        m = self.values.get(key)
        return m.value if m else None

    def cpu_label(self) -> str:
        """What the CPU part of DB time is called: 'CPU + Wait for CPU' where it is ASH's row (sessions on CPU and in
        the run queue, sampled alike), else 'DB CPU'."""
        cpu = self.values.get("db_cpu_s")
        queued = cpu is not None and any((s.row or "").lower() == "cpu + wait for cpu" for s in cpu.sources)
        return "CPU + Wait for CPU" if queued else "DB CPU"

    def fg(self, event: str) -> EventTime | None:
        return self.fg_events.get(event.lower())

    def bg(self, event: str) -> EventTime | None:
        return self.bg_events.get(event.lower())

    def fg_time(self, event: str) -> float:
        e = self.fg(event)
        return e.time_s if e else 0.0

    def pct_db_time(self, *events: str) -> float | None:
        dbt = self.v("db_time_s")
        if not dbt:
            return None
        return 100.0 * sum(self.fg_time(e) for e in events) / dbt

    def as_dict(self) -> dict:
        return {k: m.as_dict() for k, m in self.values.items()}
